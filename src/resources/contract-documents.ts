import { z } from 'zod';
import type { APIPromise } from '../core/request/api-promise.js';
import type { RequestOptions } from '../core/request/request-options.js';
import type { Requester } from '../core/request/requester.js';
import type { ContractDocumentKind } from '../schemas/contracts.js';
import { PathParam } from '../schemas/request-params.js';
import { type ContractDocumentList, documentsOf } from './contract-lists.js';
import { callOf, type Operation } from './operations.js';
import { guarded, parseInput, requestOptions } from './parse-input.js';

const VersionArgs = z.strictObject({ version: PathParam });
const DocumentArgs = z.strictObject({ version: PathParam, name: PathParam });

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
  readonly #kind: ContractDocumentKind;
  readonly #list: Operation;
  readonly #get: Operation & { response: z.ZodType<Document> };

  constructor(
    requester: Requester,
    kind: ContractDocumentKind,
    list: Operation,
    get: Operation & { response: z.ZodType<Document> },
  ) {
    this.#requester = requester;
    this.#kind = kind;
    this.#list = list;
    this.#get = get;
  }

  /**
   * `GET /v1/contracts/{kind}/{version}` — every document of this kind in `version`, whether the server
   * answers with a plain array or an object around one (`{ templates: [...] }`). A body of any other shape
   * (the spec does not show one) comes back as sent, in `unrecognized`, with a warning once per route.
   */
  list(version: string, options?: RequestOptions): APIPromise<ContractDocumentList<Document>> {
    return guarded(() => {
      const args = parseInput(VersionArgs, { version }, `contracts.${this.#kind}.list arguments`);
      return this.#requester.request({
        ...callOf(this.#list, args),
        select: (body: unknown) => documentsOf<Document>(body, this.#kind),
        options: requestOptions(options),
      });
    });
  }

  /** `GET /v1/contracts/{kind}/{version}/{name}` — one document. */
  get(version: string, name: string, options?: RequestOptions): APIPromise<Document> {
    return guarded(() => {
      const args = parseInput(DocumentArgs, { version, name }, `contracts.${this.#kind}.get arguments`);
      return this.#requester.request({
        ...callOf(this.#get, args),
        options: requestOptions(options),
      });
    });
  }
}
