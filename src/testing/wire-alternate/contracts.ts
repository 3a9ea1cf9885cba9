import { z } from 'zod';
import { SpvRequestCreate } from './spv-requests.js';

const JsonObject = z.record(z.string(), z.unknown());

/** `GET /v1/contracts` — a plain array of version names, oldest first. */
export const ContractVersionList = z.array(z.string());
export type ContractVersionList = z.infer<typeof ContractVersionList>;

/** A contract template: its id, version and the JSON Schema of an SPV request's `attributes`. */
export const ContractTemplate = z.looseObject({
  templateId: z.string(),
  contractVersion: z.string(),
  jsonSchema: JsonObject,
});
export type ContractTemplate = z.infer<typeof ContractTemplate>;

/** One attribute of a catalog. */
export const CatalogAttribute = z.looseObject({ key: z.string(), primitiveType: z.string() });
export type CatalogAttribute = z.infer<typeof CatalogAttribute>;

/** An attribute catalog. */
export const ContractCatalog = z.looseObject({
  catalogId: z.string(),
  contractVersion: z.string(),
  attributes: z.array(CatalogAttribute),
});
export type ContractCatalog = z.infer<typeof ContractCatalog>;

/** A primitive type specification. */
export const ContractPrimitive = z.looseObject({
  primitiveId: z.string(),
  contractVersion: z.string(),
  jsonSchema: JsonObject,
});
export type ContractPrimitive = z.infer<typeof ContractPrimitive>;

/** A sample: `body` is a complete `POST /v1/spv-requests` body. */
export const ContractSample = z.looseObject({
  sampleId: z.string(),
  contractVersion: z.string(),
  templateId: z.string(),
  body: SpvRequestCreate,
});
export type ContractSample = z.infer<typeof ContractSample>;

/** Templates are listed as an object keyed by template id; the other document lists are plain arrays. */
export const ContractTemplateList = z.record(z.string(), ContractTemplate);
export const ContractCatalogList = z.array(ContractCatalog);
export const ContractPrimitiveList = z.array(ContractPrimitive);
export const ContractSampleList = z.array(ContractSample);
