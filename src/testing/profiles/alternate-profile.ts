import { randomUUID } from 'node:crypto';
import { ALTERNATE_ATTRIBUTE_CODES } from '../wire-alternate/errors.js';
import * as wire from '../wire-alternate/index.js';
import { contractDocument, contractVersions } from './alternate-contracts.js';
import { alternateInvestorRow } from './alternate-investor-row.js';
import {
  investorResult,
  offsetTimestamp,
  partnerCode,
  spvRequest,
  spvRequestSummary,
  subscriptionResult,
  uploadResult,
} from './alternate-resources.js';
import { type FakeProfile, type ProblemWire, type ProfilePresenter, profileSchemas } from './fake-profile.js';
import { opaqueShareClass } from './share-class-slug.js';

type Json = Record<string, unknown>;

const seconds = (timestamp: unknown) => Math.floor(Date.parse(String(timestamp)) / 1000);

// The partner envelope keeps the spec's four fields; its codes, `errorId`s and challenge header differ.
function problem({ status, body, headers }: ProblemWire): ProblemWire {
  const out = { ...headers };
  if (out['www-authenticate'] !== undefined) out['www-authenticate'] = 'Bearer';
  if (status === 422) return { status, body, headers: out };
  const envelope = body as Json & { validationErrors: Array<{ attribute: string; code: string }> };
  return {
    status,
    body: {
      ...envelope,
      code: partnerCode(envelope['code']),
      validationErrors: envelope.validationErrors.map((e) => ({
        ...e,
        attribute: e.attribute.replace(/\[(\d+)\]/g, '.$1'),
        code: ALTERNATE_ATTRIBUTE_CODES[e.code] ?? e.code,
      })),
    },
    headers: out,
  };
}

const present: ProfilePresenter = {
  root: () => ({ message: 'Partner Equity API', docs: '/docs' }),
  health: () => ({ status: 'healthy' }),
  tokenInfo: (body) => ({
    active: true,
    client_id: body['clientId'],
    client_type: body['clientType'],
    application_name: body['applicationName'],
    token_type: 'Bearer',
    iat: seconds(body['issuedAt']),
    exp: seconds(body['expiresAt']),
  }),
  contractVersions,
  contractDocument,
  // Templates keyed by their id; the other kinds as plain arrays.
  contractList: (kind, _version, docs) =>
    kind === 'templates' ? Object.fromEntries(docs.map((doc) => [String(doc['templateId']), doc])) : docs,
  // `count` counts the page, not the list.
  listPage: (page) => ({ ...page, count: page.documents.length }),
  timestamp: offsetTimestamp,
  spvRequest,
  spvRequestListItem: spvRequestSummary,
  investorResult,
  subscriptionResult,
  signedFormResult: uploadResult('subscriptionFormUrl'),
  fundingReceiptResult: uploadResult('fundingReceiptUrl'),
  problem,
  // Starlette's answers for an unknown path and for a known path with another method.
  noRoute: (_method, _path, allowed) =>
    allowed.length === 0
      ? { status: 404, json: { detail: 'Not Found' } }
      : { status: 405, json: { detail: 'Method Not Allowed' }, headers: { allow: allowed.join(', ') } },
  requestId: () => randomUUID(),
  errorId: () => randomUUID(),
};

/**
 * A second plausible server for every spec gap (`docs/spec-gaps.md` in the package; the list is
 * `ALTERNATE_PROFILE_CHOICES`). Its row limits stay at or above 500, so the SDK's default chunking works.
 */
export const ALTERNATE_PROFILE: FakeProfile = {
  name: 'alternate',
  webhookPayloads: 'minimal',
  description:
    'Served by the fake Partner Equity API (@partner-equity/sdk/testing), alternate profile: another ' +
    'plausible answer wherever the spec says "not shown".',
  defaults: {
    skewSeconds: 10,
    maxAssertionLifetimeSeconds: 60,
    maxInvestorRows: wire.MAX_INVESTOR_ROWS,
    maxSubscriptionRows: wire.MAX_SUBSCRIPTION_ROWS,
    maxJsonBodyBytes: 2 * 1024 * 1024,
  },
  routes: {
    contractsAuth: 'bearer',
    uploadIdempotency: 'ignored',
    listOrder: 'oldest-first',
    shareClassSlug: opaqueShareClass,
  },
  accept: {
    assertionAlgorithms: ['EdDSA'],
    audienceArray: false,
    spvRequestCreate: wire.SpvRequestCreate.transform(({ templateVersion, ...rest }) =>
      templateVersion == null ? rest : { ...rest, templateVersion },
    ),
    investorRow: alternateInvestorRow,
    fundingReceiptTypes: 'any',
  },
  schemas: profileSchemas(wire),
  present,
};
