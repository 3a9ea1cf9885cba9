import { z } from 'zod';
import { allNullish, nullish, Timestamp } from './primitives.js';

/** The `grant_type` of the JWT-bearer assertion grant (RFC 7523). */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * The token endpoint's 201 response. Only `accessToken` is needed to go on; a missing `expiresIn` means the
 * spec's default (3600 s), and a missing refresh token makes the client assert afresh at renewal.
 */
export const TokenResponse = z.looseObject({
  accessToken: z.string().min(1),
  refreshToken: nullish(z.string().min(1)),
  tokenType: nullish(z.string()),
  expiresIn: nullish(z.number().positive()),
  refreshExpiresIn: nullish(z.number().positive()),
});

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
