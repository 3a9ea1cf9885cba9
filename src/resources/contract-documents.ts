import type { APIPromise } from '../core/request/api-promise.js';
import type { RequestOptions } from '../core/request/request-options.js';
import type { Requester } from '../core/request/requester.js';
import type { ContractDocumentList } from './contract-lists.js';
import type { Operation } from './operations.js';

/**
 * One kind of versioned contract document (`client.contracts.templates`, `.catalogs`, `.primitives`,
 * `.samples`): every document of a version, or one by name. The spec does not show their content: the
 * documents are returned as the server sends them, every field optional.
 *
 * @example
 * ```ts
 * const templates = await client.contracts.templates.list('2024-06');
 * const template = await client.contracts.templates.get('2024-06', 'spv-standard');
 * ```
 */
export class ContractDocuments<Document> {
  readonly #requester: Requester;
  readonly #list: Operation;
  readonly #get: Operation;

  constructor(requester: Requester, list: Operation, get: Operation) {
    this.#requester = requester;
    this.#list = list;
    this.#get = get;
  }

  /**
   * `GET /v1/contracts/{kind}/{version}` — every document of this kind in `version`, whether the server
   * answers with a plain array or an object around one (`{ templates: [...] }`). A body of any other shape
   * (the spec does not show one) comes back as sent, in `unrecognized`, with a warning once per route.
   */
  list(version: string, options?: RequestOptions): APIPromise<ContractDocumentList<Document>> {
    const documents = this.#requester.call(this.#list, { params: { version } }, options);
    return documents as APIPromise<ContractDocumentList<Document>>;
  }

  /** `GET /v1/contracts/{kind}/{version}/{name}` — one document. */
  get(version: string, name: string, options?: RequestOptions): APIPromise<Document> {
    return this.#requester.call(this.#get, { params: { version, name } }, options) as APIPromise<Document>;
  }
}
