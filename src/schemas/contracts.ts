import { z } from 'zod';
import { allNullish, JsonObject, nullish } from './primitives.js';

/**
 * The spec shows neither the content nor the fields of contract documents ("not shown"): every schema here
 * keeps whatever the server sends, and names the fields a server is likely to use only so that they are
 * typed when present.
 */

/** One published contract version, when the server describes versions as objects. */
export const ContractVersion = z.looseObject(
  allNullish({ version: z.string(), releasedAt: z.string(), deprecated: z.boolean() }),
);
export type ContractVersion = z.infer<typeof ContractVersion>;

const versionEntries = z.array(z.union([z.string(), ContractVersion]));
/**
 * `GET /v1/contracts` — the available contract versions: a plain list (of version strings or objects) or
 * an object around one. `client.contracts.versions()` reads the version names out of any of these.
 */
export const ContractVersionList = z.union([
  versionEntries,
  z.looseObject({ latest: nullish(z.string()), versions: nullish(versionEntries) }),
]);
export type ContractVersionList = z.infer<typeof ContractVersionList>;

// Shared by every kind of document: zod schemas are immutable, so one instance serves each object.
const documentFields = allNullish({
  name: z.string(),
  version: z.string(),
  title: z.string(),
  description: z.string(),
});

/** A contract template; when the server gives the JSON Schema of `attributes`, it is usually `schema`. */
export const ContractTemplate = z.looseObject({ ...documentFields, schema: nullish(JsonObject) });
export type ContractTemplate = z.infer<typeof ContractTemplate>;

/** One attribute of an attribute catalog. */
export const CatalogAttribute = z.looseObject(
  allNullish({ name: z.string(), primitive: z.string(), description: z.string() }),
);
export type CatalogAttribute = z.infer<typeof CatalogAttribute>;

/** An attribute catalog. */
export const ContractCatalog = z.looseObject({
  ...documentFields,
  attributes: nullish(z.array(z.union([CatalogAttribute, z.unknown()]))),
});
export type ContractCatalog = z.infer<typeof ContractCatalog>;

/** A primitive type specification. */
export const ContractPrimitive = z.looseObject({ ...documentFields, schema: nullish(JsonObject) });
export type ContractPrimitive = z.infer<typeof ContractPrimitive>;

/**
 * A sample's request body, typed so that `spvRequests.create(sample.payload)` compiles without a cast; the
 * SDK checks it there like any body (`templateId` must be a non-empty string).
 */
export const ContractSamplePayload = JsonObject.brand<'ContractSamplePayload'>();
export type ContractSamplePayload = z.infer<typeof ContractSamplePayload>;

/**
 * A sample payload. When the server gives a complete `POST /v1/spv-requests` body, it is usually `payload`,
 * which can be passed to `spvRequests.create` as it is.
 */
export const ContractSample = z.looseObject({
  ...documentFields,
  templateId: nullish(z.string()),
  payload: nullish(ContractSamplePayload),
});
export type ContractSample = z.infer<typeof ContractSample>;

/** The kinds of contract document, as they appear in paths (`/v1/contracts/{kind}/{version}`). */
export const CONTRACT_DOCUMENT_KINDS = ['templates', 'catalogs', 'primitives', 'samples'] as const;
/** One of {@link CONTRACT_DOCUMENT_KINDS}: `'templates' | 'catalogs' | 'primitives' | 'samples'`. */
export type ContractDocumentKind = (typeof CONTRACT_DOCUMENT_KINDS)[number];

/** A list of contract documents: a plain array, or an object that holds the array under `key`. */
function documentList<const Key extends string, Doc extends z.ZodType>(key: Key, doc: Doc) {
  const list = z.array(doc);
  const shape = { version: documentFields.version, [key]: nullish(list) } as {
    version: typeof documentFields.version;
  } & { [K in Key]: z.ZodOptional<z.ZodNullable<z.ZodArray<Doc>>> };
  return z.union([list, z.looseObject(shape)]);
}

/** `GET /v1/contracts/templates/{version}`. */
export const ContractTemplateList = documentList('templates', ContractTemplate);
export type ContractTemplateList = z.infer<typeof ContractTemplateList>;

/** `GET /v1/contracts/catalogs/{version}`. */
export const ContractCatalogList = documentList('catalogs', ContractCatalog);
export type ContractCatalogList = z.infer<typeof ContractCatalogList>;

/** `GET /v1/contracts/primitives/{version}`. */
export const ContractPrimitiveList = documentList('primitives', ContractPrimitive);
export type ContractPrimitiveList = z.infer<typeof ContractPrimitiveList>;

/** `GET /v1/contracts/samples/{version}`. */
export const ContractSampleList = documentList('samples', ContractSample);
export type ContractSampleList = z.infer<typeof ContractSampleList>;
