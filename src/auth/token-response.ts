import { z } from 'zod';
import { TokenResponse as TokenResponseShape } from '../schemas/oauth.js';

/**
 * How the SDK reads the token endpoint's answer (the spec's "Token response" fields, from the shared
 * schema), before any of it is trusted: `tokenType` must be Bearer in any letter case; lifetimes default to
 * the documented 3600 s and 30 days when absent; a missing `refreshToken` is tolerated (the next renewal
 * then uses a new assertion). Unknown fields are kept: the API may add some.
 */
export const tokenResponseSchema = TokenResponseShape.extend({
  refreshToken: z.string().min(1).optional(),
  tokenType: z.string().refine((type) => type.toLowerCase() === 'bearer', { message: 'expected "Bearer"' }),
  expiresIn: z.int().positive().default(3600),
  refreshExpiresIn: z.int().positive().default(2_592_000),
});

/**
 * Longest access token lifetime the SDK believes, in seconds (24 h; the API's default is 1 h). A larger
 * `expiresIn` is clamped to it, so the token is still renewed at about half of that.
 */
export const MAX_ACCESS_TOKEN_LIFETIME_S = 86_400;

/** Longest refresh token lifetime the SDK believes, in seconds: the API's documented 30 days. */
export const MAX_REFRESH_TOKEN_LIFETIME_S = 2_592_000;

/** A validated token response. */
export type TokenResponse = z.output<typeof tokenResponseSchema>;

/** The token endpoint's path (no bearer token; `application/x-www-form-urlencoded` bodies). */
export const TOKEN_PATH = '/v1/oauth2/tokens';

export { JWT_BEARER_GRANT_TYPE as JWT_BEARER_GRANT } from '../schemas/oauth.js';
