import { z } from 'zod';
import { openEnum } from '../../schemas/open-enum.js';
import { Timestamp } from './primitives.js';

/** The `grant_type` of the JWT-bearer assertion grant (RFC 7523). */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Form fields of the assertion grant posted to `/v1/oauth2/tokens`. */
export const JwtBearerGrant = z.strictObject({
  grant_type: z.literal(JWT_BEARER_GRANT_TYPE),
  assertion: z.string().min(1),
});
export type JwtBearerGrant = z.infer<typeof JwtBearerGrant>;

/** Form fields of the refresh grant posted to `/v1/oauth2/tokens`. */
export const RefreshTokenGrant = z.strictObject({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1),
});
export type RefreshTokenGrant = z.infer<typeof RefreshTokenGrant>;

/** Either grant, told apart by `grant_type`. */
export const TokenRequest = z.discriminatedUnion('grant_type', [JwtBearerGrant, RefreshTokenGrant]);
export type TokenRequest = z.infer<typeof TokenRequest>;

/** The token endpoint's 201 response. */
export const TokenResponse = z.looseObject({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  tokenType: openEnum(['Bearer'] as const),
  expiresIn: z.int().positive(),
  refreshExpiresIn: z.int().positive(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/**
 * `GET /v1/oauth2/info` — metadata about the presented access token. The spec names the content (client
 * type, client id, application name) but not the fields: these names are the fake API's choice, so the SDK
 * treats every one as optional and keeps whatever else the server sends.
 */
export const TokenInfo = z.looseObject({
  clientId: z.string().optional(),
  clientType: openEnum(['partner'] as const).optional(),
  applicationName: z.string().optional(),
  issuedAt: Timestamp.optional(),
  expiresAt: Timestamp.optional(),
});
export type TokenInfo = z.infer<typeof TokenInfo>;
