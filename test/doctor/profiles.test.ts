import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDoctorReport } from '../../src/doctor/format-doctor-report.js';
import { operationKey } from '../../src/doctor/openapi/sdk-expectations.js';
import { ALTERNATE_PROFILE_CHOICES } from '../../src/testing/index.js';
import { createNodeHandler, Webhook, WebhookReceiver } from '../../src/webhooks/index.node.js';
import { checkOf, type DoctorEnv, line, methodsAndPaths, startDoctorEnv, statuses } from './harness.js';

let env: DoctorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const EMPTY = { spvRequests: [], spvs: [], persons: [], subscriptions: [] };
const SERVICE_CHECKS = [
  'reachability',
  'tls',
  'server-clock',
  'token-exchange',
  'token-info',
  'partner-access',
  'contracts-auth',
  'openapi',
];

// What the doctor reports against the alternate profile, per ALTERNATE_PROFILE_CHOICES entry: every
// difference from what the SDK reads and sends, each line `impact kind operation | where | path`.
const contractDocs = {
  templates: {
    named: ['name', 'version', 'title', 'description', 'schema'],
    extra: ['templateId', 'contractVersion', 'jsonSchema'],
  },
  catalogs: { named: ['name', 'version', 'title', 'description'], extra: ['catalogId', 'contractVersion'] },
  primitives: {
    named: ['name', 'version', 'title', 'description', 'schema'],
    extra: ['primitiveId', 'contractVersion', 'jsonSchema'],
  },
  samples: {
    named: ['name', 'version', 'title', 'description', 'payload'],
    extra: ['sampleId', 'contractVersion', 'body'],
  },
};
const fields = (op: string, kind: string, names: string[], prefix = '') =>
  names.map((name) => `info ${kind} ${op} | response 200 | ${prefix}${name}`);
const CONTRACT_ROUTES = Object.keys(contractDocs).flatMap((kind) => [
  `GET /v1/contracts/${kind}/{version}`,
  `GET /v1/contracts/${kind}/{version}/{name}`,
]);
const REPORTED: Record<string, string[]> = {
  root: [
    ...fields('GET /', 'unsent-field', ['name', 'apiVersion', 'version', 'docsUrl', 'openapiUrl']),
    ...fields('GET /', 'extra-field', ['message', 'docs']),
  ],
  health: fields('GET /public/hc', 'unsent-field', ['checkedAt']),
  'token-info': [
    ...fields('GET /v1/oauth2/info', 'unsent-field', [
      'clientId',
      'clientType',
      'applicationName',
      'issuedAt',
      'expiresAt',
    ]),
    ...fields('GET /v1/oauth2/info', 'extra-field', [
      'active',
      'client_id',
      'client_type',
      'application_name',
      'token_type',
      'iat',
      'exp',
    ]),
  ],
  'contracts-auth': ['GET /v1/contracts', ...CONTRACT_ROUTES].map(
    (op) => `info token-required ${op} | security | `,
  ),
  // The alternate lists templates keyed by id, a shape the SDK hands over as sent: no field to compare there.
  'contract-documents': Object.entries(contractDocs).flatMap(([kind, { named, extra }]) =>
    [
      ...(kind === 'templates' ? [] : [`GET /v1/contracts/${kind}/{version}`]),
      `GET /v1/contracts/${kind}/{version}/{name}`,
    ].flatMap((op) => {
      const prefix = op.endsWith('{version}') ? '[].' : '';
      return [...fields(op, 'unsent-field', named, prefix), ...fields(op, 'extra-field', extra, prefix)];
    }),
  ),
  'spv-request-list-entries': fields(
    'GET /v1/spv-requests',
    'unsent-field',
    [
      'templateVersion',
      'tenantSlug',
      'clientId',
      'attributes',
      'updatedAt',
      'rejectionReason',
      'cancelledAt',
      'approvedAt',
      'materialisedRefs',
      'feesAndCarry',
    ],
    'documents[].',
  ),
  'investor-row-limit': ['info row-limit POST /v1/investors | request body | investors'],
  'subscription-row-limit': [
    'info row-limit POST /v1/spvs/{spv_slug}/subscriptions | request body | subscriptions',
  ],
  'upload-idempotency': ['forms', 'fundings'].map(
    (kind) =>
      `info undocumented-header POST /v1/spvs/{spv_slug}/subscription/{person_id}/${kind} | header Idempotency-Key | `,
  ),
};
// Choices the alternate profile shows in /openapi.json that do not touch what the SDK reads or sends.
const INVISIBLE: Record<string, string> = {
  'absent-fields-null': "the SDK's schemas take null for every conditional field already",
  timestamps: "the SDK keeps timestamps as the server's strings, whatever their form",
  'spv-request-create-body':
    "the SDK sends the create body as given; templateVersion: null is the caller's to send",
  'setup-fee': 'the SDK names no field of setupFee',
  'contract-versions': 'the SDK reads versions out of a plain list or an object around one',
  'contract-lists':
    'the SDK reads documents out of a plain array or an object around one, and hands any other shape over as sent',
  'investor-fields':
    'the SDK sends whichever investor fields it is given; the service judges which it requires',
  'investor-statuses': 'the SDK names no investor row status (any string)',
  'investor-error-codes': 'the SDK names no row error code',
  'subscription-statuses': 'the SDK names no subscription status (any string)',
  'subscription-lump-sum': 'the SDK names no field of lumpSum in results',
  'file-urls': 'the SDK takes absolute and relative file URLs alike',
  'funding-receipt-types':
    'the accepted file types are not in any schema; the SDK sends the type it is given',
  'partner-error-codes': 'error envelopes are read without naming codes',
  'error-ids': 'errorId is kept as any string',
};

describe('client.doctor() against the fake API', () => {
  it('default profile: every check ok, no difference from the SDK, and nothing written on the service', async ({
    onTestFinished,
  }) => {
    env = await startDoctorEnv('default');
    // The partner's endpoint: the SDK's receiver, with the secret the doctor is given.
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const webhook = new Webhook({ secret, now: () => env!.fake.clock.now() });
    const receiver = new WebhookReceiver(webhook, { logger: { warn() {}, error() {} } });
    const server = createServer(createNodeHandler(receiver));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    const report = await env.client().doctor({ webhook: { url, secret } });
    expect(statuses(report)).toEqual([...SERVICE_CHECKS, 'webhook-endpoint'].map((id) => `ok ${id}`));
    expect(report).toMatchObject({
      ok: true,
      status: 'ok',
      baseUrl: env.partner.baseUrl,
      responseValidation: 'warn',
    });
    expect(checkOf(report, 'openapi').findings).toEqual([]);
    expect(checkOf(report, 'contracts-auth').explanation).toMatch(/^open: answers with and without a token/);
    expect(formatDoctorReport(report, { color: true })).toContain(
      '\n  \u001b[32mok     \u001b[0m  Reachability: ',
    );
    expect(formatDoctorReport(report)).toContain('\n  ok       Reachability: GET /public/hc answered 200\n');
    expect(env.fake.admin.snapshot()).toEqual(EMPTY);
    const writes = methodsAndPaths(env.fake).filter((request) => !request.startsWith('GET '));
    expect(new Set(writes)).toEqual(new Set(['POST /v1/oauth2/tokens']));
  });

  it('alternate profile: the differences reported are exactly those of the choices it makes that the SDK can see', async () => {
    env = await startDoctorEnv('alternate');
    const report = await env.client().doctor();
    expect(statuses(report)).toEqual([
      ...SERVICE_CHECKS.map((id) => `${id === 'openapi' ? 'differs' : 'ok'} ${id}`),
      'skipped webhook-endpoint',
    ]);
    expect(report.ok).toBe(true);
    expect(checkOf(report, 'contracts-auth').explanation).toMatch(
      /^wants a token: 401 without one, 200 with it/,
    );
    const findings = checkOf(report, 'openapi').findings ?? [];
    expect(findings.map(line).sort()).toEqual(Object.values(REPORTED).flat().sort());

    // Every reported difference lies in an operation its choice names (ALTERNATE_PROFILE_CHOICES, by the
    // fake's operationId), and every choice shown in /openapi.json is either reported or out of the SDK's view.
    const doc = (await (await fetch(`${env.partner.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operationIds = new Map(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => [operationKey(method, path), op.operationId] as const),
      ),
    );
    for (const [id, lines] of Object.entries(REPORTED)) {
      const choice = ALTERNATE_PROFILE_CHOICES.find((c) => c.id === id);
      expect(choice?.inOpenApi, id).toBe(true);
      for (const text of lines) {
        const [method, route] = text.split(' | ')[0]!.split(' ').slice(2);
        expect(choice?.operations, `${id}: ${text}`).toContain(
          operationIds.get(operationKey(method!, route!)),
        );
      }
    }
    const shown = ALTERNATE_PROFILE_CHOICES.filter((c) => c.inOpenApi).map((c) => c.id);
    expect([...Object.keys(REPORTED), ...Object.keys(INVISIBLE)].sort()).toEqual(shown.sort());
    expect(env.fake.admin.snapshot()).toEqual(EMPTY);
  });

  it('the alternate profile seen without credentials: the contracts want a token the client cannot send', async () => {
    env = await startDoctorEnv('alternate');
    const report = await env
      .client({ clientId: undefined, issuer: undefined, privateKey: undefined })
      .doctor();
    expect(checkOf(report, 'token-exchange').status).toBe('skipped');
    expect(checkOf(report, 'contracts-auth')).toMatchObject({ status: 'fails' });
    const security = (checkOf(report, 'openapi').findings ?? []).filter((f) => f.kind === 'security');
    expect(security.map((f) => `${f.impact} ${f.operation}`)).toEqual(
      ['GET /v1/contracts', ...CONTRACT_ROUTES].map((op) => `fails ${op}`),
    );
    expect(report).toMatchObject({ ok: false, status: 'fails' });
  });

  it('only the groups asked for run', async () => {
    env = await startDoctorEnv('default');
    const report = await env.client().doctor({ only: ['connection', 'openapi'] });
    expect(statuses(report)).toEqual(['ok reachability', 'ok tls', 'ok server-clock', 'ok openapi']);
    expect(methodsAndPaths(env.fake)).toEqual(['GET /public/hc', 'GET /openapi.json']);
  });

  it('refuses bad options by name before anything is sent', async () => {
    env = await startDoctorEnv('default');
    const client = env.client();
    await expect(
      client.doctor({ only: ['nonsense' as never], webhook: { url: 'ftp://x', secret: '' } }),
    ).rejects.toMatchObject({
      name: 'InputValidationError',
      issues: [
        { path: 'webhook.url', message: 'Expected an http(s) URL' },
        { path: 'webhook.secret', message: expect.any(String) },
        { path: 'only.0', message: expect.any(String) },
      ],
    });
    expect(env.fake.requests).toEqual([]);
  });
});
