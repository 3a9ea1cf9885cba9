import type { z } from 'zod';
import { contractDocuments, contractVersions, hasContractVersion } from '../contracts/contract-library.js';
import { unprocessableAt } from '../http-problem.js';
import { defineRoute, json, type Route, type RouteContext } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import {
  ContractCatalog,
  ContractCatalogList,
  type ContractDocumentKind,
  ContractPrimitive,
  ContractPrimitiveList,
  ContractSample,
  ContractSampleList,
  ContractTemplate,
  ContractTemplateList,
  ContractVersionList,
} from '../wire/contracts.js';

const kinds: Array<{
  kind: ContractDocumentKind;
  param: string;
  singular: string;
  one: z.ZodType;
  list: z.ZodType;
}> = [
  {
    kind: 'templates',
    param: 'template_name',
    singular: 'Template',
    one: ContractTemplate,
    list: ContractTemplateList,
  },
  {
    kind: 'catalogs',
    param: 'catalog_name',
    singular: 'Catalog',
    one: ContractCatalog,
    list: ContractCatalogList,
  },
  {
    kind: 'primitives',
    param: 'primitive_name',
    singular: 'Primitive',
    one: ContractPrimitive,
    list: ContractPrimitiveList,
  },
  {
    kind: 'samples',
    param: 'sample_name',
    singular: 'Sample',
    one: ContractSample,
    list: ContractSampleList,
  },
];

// The spec lists only 200 and 422 for these routes, so an unknown version or name is a 422 located at the
// path parameter, not a 404.
function version(ctx: RouteContext): string {
  const value = ctx.params['version'] ?? '';
  if (!hasContractVersion(value)) {
    throw unprocessableAt(
      ['path', 'version'],
      `Unknown contract version "${value}" (see GET /v1/contracts)`,
      'enum',
    );
  }
  return value;
}

function documentRoutes({ kind, param, singular, one, list }: (typeof kinds)[number]): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: `/v1/contracts/${kind}/{version}`,
      auth: 'none',
      doc: {
        operationId: `list${singular}s`,
        summary: `All ${kind} of a contract version`,
        tag: 'Contracts',
        responses: { ...ok(200, `${singular}s of the version`, list), ...errorResponses(422) },
      },
      run: (ctx) => {
        const v = version(ctx);
        return json(200, { version: v, [kind]: contractDocuments(kind, v) });
      },
    }),
    defineRoute({
      method: 'GET',
      path: `/v1/contracts/${kind}/{version}/{${param}}`,
      auth: 'none',
      doc: {
        operationId: `get${singular}`,
        summary: `One ${singular.toLowerCase()} of a contract version`,
        tag: 'Contracts',
        responses: { ...ok(200, singular, one), ...errorResponses(422) },
      },
      run: (ctx) => {
        const v = version(ctx);
        const name = ctx.params[param] ?? '';
        const found = contractDocuments(kind, v).find((doc) => doc.name === name);
        if (found === undefined) {
          throw unprocessableAt(
            ['path', param],
            `No ${singular.toLowerCase()} "${name}" in version ${v}`,
            'enum',
          );
        }
        return json(200, found);
      },
    }),
  ];
}

/** `GET /v1/contracts` and the eight document routes. */
export const contractRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/contracts',
    auth: 'none',
    doc: {
      operationId: 'listContractVersions',
      summary: 'Available contract versions',
      tag: 'Contracts',
      responses: ok(200, 'Contract versions', ContractVersionList),
    },
    run: () => json(200, contractVersions()),
  }),
  ...kinds.flatMap(documentRoutes),
];
