import { z } from 'zod';
import { allNullish, Timestamp } from './primitives.js';

/** The `grant_type` of the JWT-bearer assertion grant (RFC 7523). */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * `GET /v1/oauth2/info` — metadata about the presented access token. The spec names the content (client
 * type, client id, application name) but not the fields: every field is optional and whatever the server
 * sends is kept.
 */
export const TokenInfo = z.looseObject(
  allNullish({
    clientId: z.string(),
    clientType: z.string(),
    applicationName: z.string(),
    issuedAt: Timestamp,
    expiresAt: Timestamp,
  }),
);
export type TokenInfo = z.infer<typeof TokenInfo>;
