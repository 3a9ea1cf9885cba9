import { z } from 'zod';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request-options.js';
import type { Requester } from '../core/requester.js';

/**
 * What `GET /v1/oauth2/info` says about the presented token. The spec names the content (client type,
 * client id, application name) but not the fields, so every field is kept exactly as the server sends it;
 * the likely names are typed for convenience and may be absent.
 */
export const TokenInfoSchema = z.looseObject({
  clientId: z.string().optional(),
  clientType: z.string().optional(),
  applicationName: z.string().optional(),
});

/** Token info as the server sent it. */
export type TokenInfo = z.output<typeof TokenInfoSchema>;

/** `client.oauth`: the token endpoint's companion routes. Tokens themselves are managed for you. */
export class OAuth {
  readonly #requester: Requester;

  /** @internal Built by the client. */
  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * Describes the access token the client is currently using (client type, client id, application name).
   * A handy first call: it proves the key, `clientId`, `issuer` and `baseUrl` are all right.
   *
   * @example
   * ```ts
   * const info = await client.oauth.info();
   * console.log(info.clientId, info.applicationName);
   * ```
   */
  info(options?: RequestOptions): APIPromise<TokenInfo> {
    return this.#requester.request({
      method: 'GET',
      path: '/v1/oauth2/info',
      response: TokenInfoSchema,
      options,
    });
  }
}
