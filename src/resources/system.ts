import type { APIPromise } from '../core/request/api-promise.js';
import type { RequestOptions } from '../core/request/request-options.js';
import type { Requester } from '../core/request/requester.js';
import type { HealthResponse, OpenApiDocument, RootResponse } from '../schemas/system.js';
import { OPERATIONS } from './operations.js';

/**
 * The service's own endpoints (no authentication): `client.system`.
 *
 * @example
 * ```ts
 * const { status } = await client.system.health(); // 'ok'
 * ```
 */
export class System {
  readonly #requester: Requester;

  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /** `GET /` — the service's name, API version and where its descriptions live. */
  root(options?: RequestOptions): APIPromise<RootResponse> {
    return this.#requester.call(OPERATIONS['system.root'], {}, options);
  }

  /** `GET /public/hc` — the health check. */
  health(options?: RequestOptions): APIPromise<HealthResponse> {
    return this.#requester.call(OPERATIONS['system.health'], {}, options);
  }

  /** `GET /openapi.json` — the machine-readable interface description (OpenAPI 3.1), unknown parts kept. */
  openapi(options?: RequestOptions): APIPromise<OpenApiDocument> {
    return this.#requester.call(OPERATIONS['system.openapi'], {}, options);
  }

  /** `GET /docs` — the interactive documentation page, as HTML text. */
  docs(options?: RequestOptions): APIPromise<string> {
    return this.#requester.call(OPERATIONS['system.docs'], {}, options);
  }
}
