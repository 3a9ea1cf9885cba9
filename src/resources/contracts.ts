import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request-options.js';
import type { Requester } from '../core/requester.js';
import {
  ContractCatalog,
  ContractCatalogList,
  ContractPrimitive,
  ContractPrimitiveList,
  ContractSample,
  ContractSampleList,
  ContractTemplate,
  ContractTemplateList,
  ContractVersionList,
} from '../schemas/contracts.js';
import { ContractDocuments } from './contract-documents.js';
import { type ContractVersions, contractVersionsOf } from './contract-lists.js';
import { requestOptions } from './parse-input.js';

/**
 * The versioned contract definitions SPV requests are validated against (`client.contracts`). The spec
 * declares no security requirement here; the client still sends its token when it has credentials.
 *
 * @example
 * ```ts
 * const { latest } = await client.contracts.versions();
 * const template = await client.contracts.templates.get(latest, 'spv-standard');
 * const sample = await client.contracts.samples.get(latest, 'spv-standard-minimal');
 * ```
 */
export class Contracts {
  readonly #requester: Requester;
  /** Templates: JSON Schemas an SPV request's `attributes` must match. */
  readonly templates: ContractDocuments<ContractTemplate>;
  /** Attribute catalogs: the vocabulary templates draw from. */
  readonly catalogs: ContractDocuments<ContractCatalog>;
  /** Primitive type specifications. */
  readonly primitives: ContractDocuments<ContractPrimitive>;
  /** Sample payloads: complete, valid SPV request bodies. */
  readonly samples: ContractDocuments<ContractSample>;

  constructor(requester: Requester) {
    this.#requester = requester;
    this.templates = new ContractDocuments(requester, 'templates', ContractTemplateList, ContractTemplate);
    this.catalogs = new ContractDocuments(requester, 'catalogs', ContractCatalogList, ContractCatalog);
    this.primitives = new ContractDocuments(
      requester,
      'primitives',
      ContractPrimitiveList,
      ContractPrimitive,
    );
    this.samples = new ContractDocuments(requester, 'samples', ContractSampleList, ContractSample);
  }

  /**
   * `GET /v1/contracts` — the contract versions that can be used as `version`, and the newest: read out of
   * whichever shape the server answers with (a plain list of versions, or an object around one).
   */
  versions(options?: RequestOptions): APIPromise<ContractVersions> {
    return this.#requester.request({
      method: 'GET',
      path: '/v1/contracts',
      response: ContractVersionList,
      select: contractVersionsOf,
      options: requestOptions(options),
    });
  }
}
