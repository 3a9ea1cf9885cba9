import { z } from 'zod';
import { CalendarDate } from './primitives.js';

const JsonObject = z.record(z.string(), z.unknown());

/** One published contract version. */
export const ContractVersion = z.looseObject({
  version: z.string(),
  releasedAt: CalendarDate,
  deprecated: z.boolean(),
});
export type ContractVersion = z.infer<typeof ContractVersion>;

/** `GET /v1/contracts` — the versions that can be used as `{version}`, oldest first, and the newest one. */
export const ContractVersionList = z.looseObject({
  latest: z.string(),
  versions: z.array(ContractVersion),
});
export type ContractVersionList = z.infer<typeof ContractVersionList>;

const documentFields = {
  name: z.string(),
  version: z.string(),
  title: z.string(),
  description: z.string(),
};

/** A contract template: `schema` is the JSON Schema (draft 2020-12) that an SPV request's `attributes` must match. */
export const ContractTemplate = z.looseObject({ ...documentFields, schema: JsonObject });
export type ContractTemplate = z.infer<typeof ContractTemplate>;

/** One attribute of an attribute catalog. */
export const CatalogAttribute = z.looseObject({
  name: z.string(),
  primitive: z.string(),
  description: z.string(),
});
export type CatalogAttribute = z.infer<typeof CatalogAttribute>;

/** An attribute catalog: the vocabulary templates draw from, each attribute typed by a primitive. */
export const ContractCatalog = z.looseObject({ ...documentFields, attributes: z.array(CatalogAttribute) });
export type ContractCatalog = z.infer<typeof ContractCatalog>;

/** A primitive type specification, itself a JSON Schema fragment. */
export const ContractPrimitive = z.looseObject({ ...documentFields, schema: JsonObject });
export type ContractPrimitive = z.infer<typeof ContractPrimitive>;

/** A sample payload: a complete, valid `POST /v1/spv-requests` body for `templateId`. */
export const ContractSample = z.looseObject({
  ...documentFields,
  templateId: z.string(),
  payload: JsonObject,
});
export type ContractSample = z.infer<typeof ContractSample>;

/** The kinds of contract document, as they appear in paths (`/v1/contracts/{kind}/{version}`). */
export const CONTRACT_DOCUMENT_KINDS = ['templates', 'catalogs', 'primitives', 'samples'] as const;
/** One of {@link CONTRACT_DOCUMENT_KINDS}: `'templates' | 'catalogs' | 'primitives' | 'samples'`. */
export type ContractDocumentKind = (typeof CONTRACT_DOCUMENT_KINDS)[number];

/** `GET /v1/contracts/templates/{version}`. */
export const ContractTemplateList = z.looseObject({
  version: z.string(),
  templates: z.array(ContractTemplate),
});
export type ContractTemplateList = z.infer<typeof ContractTemplateList>;

/** `GET /v1/contracts/catalogs/{version}`. */
export const ContractCatalogList = z.looseObject({ version: z.string(), catalogs: z.array(ContractCatalog) });
export type ContractCatalogList = z.infer<typeof ContractCatalogList>;

/** `GET /v1/contracts/primitives/{version}`. */
export const ContractPrimitiveList = z.looseObject({
  version: z.string(),
  primitives: z.array(ContractPrimitive),
});
export type ContractPrimitiveList = z.infer<typeof ContractPrimitiveList>;

/** `GET /v1/contracts/samples/{version}`. */
export const ContractSampleList = z.looseObject({ version: z.string(), samples: z.array(ContractSample) });
export type ContractSampleList = z.infer<typeof ContractSampleList>;
