import { z } from 'zod';

/**
 * `GET /v1/oauth2/info` in the style of OAuth token introspection (RFC 7662): snake_case names, times as
 * Unix seconds.
 */
export const TokenInfo = z.looseObject({
  active: z.boolean(),
  client_id: z.string(),
  client_type: z.string(),
  application_name: z.string(),
  token_type: z.literal('Bearer'),
  iat: z.int(),
  exp: z.int(),
});
export type TokenInfo = z.infer<typeof TokenInfo>;
