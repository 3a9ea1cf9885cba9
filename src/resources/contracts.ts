import type { APIPromise } from '../core/request/api-promise.js';
import type { RequestOptions } from '../core/request/request-options.js';
import type { Requester } from '../core/request/requester.js';
import type {
  ContractCatalog,
  ContractPrimitive,
  ContractSample,
  ContractTemplate,
} from '../schemas/contracts.js';
import { ContractDocuments } from './contract-documents.js';
import type { ContractVersions } from './contract-lists.js';
import { OPERATIONS } from './operations.js';

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
    const kind = (name: 'templates' | 'catalogs' | 'primitives' | 'samples') =>
      [requester, OPERATIONS[`contracts.${name}.list`], OPERATIONS[`contracts.${name}.get`]] as const;
    this.templates = new ContractDocuments(...kind('templates'));
    this.catalogs = new ContractDocuments(...kind('catalogs'));
    this.primitives = new ContractDocuments(...kind('primitives'));
    this.samples = new ContractDocuments(...kind('samples'));
  }

  /**
   * `GET /v1/contracts` — the contract versions that can be used as `version`, and the newest: read out of
   * whichever shape the server answers with (a plain list of versions, or an object around one).
   */
  versions(options?: RequestOptions): APIPromise<ContractVersions> {
    return this.#requester.call(OPERATIONS['contracts.versions'], {}, options);
  }
}
