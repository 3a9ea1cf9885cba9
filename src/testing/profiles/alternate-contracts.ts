import type { ContractDocumentKind } from '../wire/contracts.js';

// The alternate profile's contract documents: other field names, no title or description, plain arrays.

type Json = Record<string, unknown>;

const idField: Record<ContractDocumentKind, string> = {
  templates: 'templateId',
  catalogs: 'catalogId',
  primitives: 'primitiveId',
  samples: 'sampleId',
};

/** One document: `{ <kind>Id, contractVersion, … }` (`jsonSchema`, `attributes: [{ key, primitiveType }]`, `body`). */
export function contractDocument(kind: ContractDocumentKind, doc: Json): Json {
  const head = { [idField[kind]]: doc['name'], contractVersion: doc['version'] };
  switch (kind) {
    case 'templates':
    case 'primitives':
      return { ...head, jsonSchema: doc['schema'] };
    case 'catalogs':
      return {
        ...head,
        attributes: (doc['attributes'] as Json[]).map((a) => ({
          key: a['name'],
          primitiveType: a['primitive'],
        })),
      };
    case 'samples':
      return { ...head, templateId: doc['templateId'], body: doc['payload'] };
  }
}

/** `GET /v1/contracts`: the version names. */
export function contractVersions(body: { versions: Array<{ version: string }> }): string[] {
  return body.versions.map((v) => v.version);
}
