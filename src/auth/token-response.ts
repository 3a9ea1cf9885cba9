import { z } from 'zod';
import { TokenResponse as TokenResponseShape } from '../schemas/oauth.js';

/**
 * How the SDK reads the token endpoint's answer (the spec's "Token response" fields, from the shared
 * schema), before any of it is trusted: `tokenType` must be Bearer in any letter case; lifetimes default to
 * the documented 3600 s and 30 days when absent; a missing or `null` `refreshToken` is tolerated (the next renewal
 * then uses a new assertion). Unknown fields are kept: the API may add some.
 */
export const tokenResponseSchema = TokenResponseShape.extend({
  refreshToken: z
    .string()
    .min(1)
    .nullish()
    .transform((token) => token ?? undefined),
  tokenType: z.string().refine((type) => type.toLowerCase() === 'bearer', { message: 'expected "Bearer"' }),
  expiresIn: z
    .int()
    .positive()
    .nullish()
    .transform((seconds) => seconds ?? 3600),
  refreshExpiresIn: z
    .int()
    .positive()
    .nullish()
    .transform((seconds) => seconds ?? 2_592_000),
});

/** A validated token response. */
export type TokenResponse = z.output<typeof tokenResponseSchema>;

/** The token endpoint's path (no bearer token; `application/x-www-form-urlencoded` bodies). */
export const TOKEN_PATH = '/v1/oauth2/tokens';

export { JWT_BEARER_GRANT_TYPE as JWT_BEARER_GRANT } from '../schemas/oauth.js';
