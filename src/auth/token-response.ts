import { z } from 'zod';

// A token goes into an `Authorization` header (a refresh token into a form body, and it may be logged as
// header-like text): visible ASCII only. A CR or LF would inject a header; other characters would make every
// call fail as a "connection error". Refused on arrival, by field name only (the value is never quoted).
const headerSafeToken = () =>
  z
    .string()
    .min(1)
    .refine((value) => /^[\x21-\x7e]+$/.test(value), {
      message: 'must hold only visible ASCII characters (it is sent in an HTTP header)',
    });

/**
 * How the SDK reads the token endpoint's 201 answer (the spec's "Token response" fields), before any of
 * it is trusted: `tokenType` must be Bearer in any letter case; tokens must be visible ASCII (they go in a
 * header); lifetimes default to the documented 3600 s and 30 days when absent (and are capped by the token
 * manager, see {@link MAX_ACCESS_TOKEN_LIFETIME_S}); a missing or `null` `refreshToken` is tolerated (the
 * next renewal then uses a new assertion). Unknown fields are kept.
 */
export const tokenResponseSchema = z.looseObject({
  accessToken: headerSafeToken(),
  refreshToken: headerSafeToken()
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
