import type { APIPromise } from '../core/request/api-promise.js';
import type { RequestOptions } from '../core/request/request-options.js';
import type { Requester } from '../core/request/requester.js';
import type { TokenInfo } from '../schemas/oauth.js';
import { OPERATIONS } from './operations.js';

export type { TokenInfo };

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
    return this.#requester.call(OPERATIONS['oauth.info'], {}, options);
  }
}
