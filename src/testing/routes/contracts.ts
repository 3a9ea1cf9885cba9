import { contractDocuments, contractVersions, hasContractVersion } from '../contracts/contract-library.js';
import { unprocessableAt } from '../http-problem.js';
import type { FakeProfile } from '../profiles/fake-profile.js';
import { defineRoute, json, type Route, type RouteContext } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import { CONTRACT_DOCUMENT_KINDS, type ContractDocumentKind } from '../wire/contracts.js';

const kinds: Record<ContractDocumentKind, { param: string; singular: string }> = {
  templates: { param: 'template_name', singular: 'Template' },
  catalogs: { param: 'catalog_name', singular: 'Catalog' },
  primitives: { param: 'primitive_name', singular: 'Primitive' },
  samples: { param: 'sample_name', singular: 'Sample' },
};

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

function documentRoutes(profile: FakeProfile, kind: ContractDocumentKind): Route[] {
  const { param, singular } = kinds[kind];
  const { one, list } = profile.schemas.contractDocuments[kind];
  const { schemas, present } = profile;
  const auth = profile.routes.contractsAuth;
  const errors = auth === 'bearer' ? errorResponses(schemas, 401, 422) : errorResponses(schemas, 422);
  return [
    defineRoute({
      method: 'GET',
      path: `/v1/contracts/${kind}/{version}`,
      auth,
      doc: {
        operationId: `list${singular}s`,
        summary: `All ${kind} of a contract version`,
        tag: 'Contracts',
        responses: { ...ok(200, `${singular}s of the version`, list), ...errors },
      },
      run: (ctx) => {
        const v = version(ctx);
        const docs = contractDocuments(kind, v) as unknown as Array<Record<string, unknown>>;
        return json(
          200,
          present.contractList(
            kind,
            v,
            docs.map((doc) => present.contractDocument(kind, doc) as Record<string, unknown>),
          ),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: `/v1/contracts/${kind}/{version}/{${param}}`,
      auth,
      doc: {
        operationId: `get${singular}`,
        summary: `One ${singular.toLowerCase()} of a contract version`,
        tag: 'Contracts',
        responses: { ...ok(200, singular, one), ...errors },
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
        return json(200, present.contractDocument(kind, found as unknown as Record<string, unknown>));
      },
    }),
  ];
}

/** `GET /v1/contracts` and the eight document routes. */
export const contractRoutes = (profile: FakeProfile): Route[] => [
  defineRoute({
    method: 'GET',
    path: '/v1/contracts',
    auth: profile.routes.contractsAuth,
    doc: {
      operationId: 'listContractVersions',
      summary: 'Available contract versions',
      tag: 'Contracts',
      responses:
        profile.routes.contractsAuth === 'bearer'
          ? {
              ...ok(200, 'Contract versions', profile.schemas.ContractVersionList),
              ...errorResponses(profile.schemas, 401),
            }
          : ok(200, 'Contract versions', profile.schemas.ContractVersionList),
    },
    run: () => json(200, profile.present.contractVersions(contractVersions())),
  }),
  ...CONTRACT_DOCUMENT_KINDS.flatMap((kind) => documentRoutes(profile, kind)),
];
