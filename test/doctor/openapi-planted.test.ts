import { beforeAll, describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import { compareOpenApi } from '../../src/doctor/openapi/compare-openapi.js';
import { sdkOpenApiDocument } from '../../src/doctor/openapi/sdk-openapi-document.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { useTestServer } from '../helpers/test-server.js';
import { checkOf, line } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: tests edit arbitrary OpenAPI JSON
type Doc = any;
let served: Doc;
beforeAll(async () => {
  const fake = new FakePartnerEquity();
  const { baseUrl } = await fake.listen();
  served = await (await fetch(`${baseUrl}/openapi.json`)).json();
  await fake.close();
});

const context = (responseValidation: 'strict' | 'warn' | 'off' = 'warn', defaultHeaders: string[] = []) => ({
  responseValidation,
  hasCredentials: true,
  defaultHeaders: new Set(defaultHeaders),
});
/** The default fake's document with one change planted. */
function planted(change: (doc: Doc) => void): Doc {
  const doc = structuredClone(served);
  change(doc);
  return doc;
}
function linesOf(doc: Doc, ctx = context()): string[] {
  const result = compareOpenApi(doc, ctx);
  if (!result.comparable) throw new Error(result.reason);
  return result.findings.map(line).sort();
}
const SPV_ONE = ['DELETE /v1/spv-requests/{slug}', 'GET /v1/spv-requests/{slug}', 'POST /v1/spv-requests'];

describe('/openapi.json with planted differences, each with its severity', () => {
  it('a document identical to what the SDK reads and sends, and the default fake: no difference', () => {
    expect(linesOf(sdkOpenApiDocument())).toEqual([]);
    expect(linesOf(sdkOpenApiDocument(), context('strict'))).toEqual([]);
    expect(linesOf(served, context('strict'))).toEqual([]);
  });

  it('a required response field the SDK does not read: informational, wherever the schema is used', () => {
    const doc = planted((d) => {
      d.components.schemas.SpvRequest.properties.region = { type: 'string' };
      d.components.schemas.SpvRequest.required.push('region');
    });
    expect(linesOf(doc, context('strict'))).toEqual(
      [
        'info extra-field GET /v1/spv-requests | response 200 | documents[].region',
        ...SPV_ONE.map(
          (op) => `info extra-field ${op} | response ${op.startsWith('POST') ? 201 : 200} | region`,
        ),
      ].sort(),
    );
    const [finding] = (compareOpenApi(doc, context()) as { findings: { message: string }[] }).findings;
    expect(finding?.message).toBe(
      'described by this service (required), not named by the SDK (kept on the object, untyped)',
    );
  });

  it('a nullable field the SDK types non-null: fails under strict, tolerated under warn and off', () => {
    const doc = planted((d) => {
      d.components.schemas.SpvRequest.properties.templateId = { type: ['string', 'null'] };
    });
    const expected = (impact: string) =>
      SPV_ONE.map(
        (op) => `${impact} nullable ${op} | response ${op.startsWith('POST') ? 201 : 200} | templateId`,
      ).sort();
    expect(linesOf(doc, context('strict'))).toEqual(expected('fails'));
    expect(linesOf(doc, context('warn'))).toEqual(expected('tolerated'));
    expect(linesOf(doc, context('off'))).toEqual(expected('tolerated'));
    const result = compareOpenApi(doc, context('strict'));
    expect(result.comparable && result.findings[0]?.message).toBe(
      "may be null here; the SDK's schema expects string",
    );
  });

  it('a new enum value: informational (the SDK keeps statuses open)', () => {
    const doc = planted((d) => {
      d.components.schemas.SpvRequestStatus.anyOf[0].enum.push('on-hold');
    });
    expect(linesOf(doc, context('strict'))).toEqual(
      [
        'info enum-value GET /v1/spv-requests | response 200 | documents[].status',
        ...SPV_ONE.map(
          (op) => `info enum-value ${op} | response ${op.startsWith('POST') ? 201 : 200} | status`,
        ),
      ].sort(),
    );
    const result = compareOpenApi(doc, context());
    expect(result.comparable && result.findings[0]?.message).toBe(
      'values the SDK does not name: "on-hold" (they arrive as plain strings: handle them)',
    );
  });

  it('a renamed path: both operations would fail, with the new path named', () => {
    const doc = planted((d) => {
      d.paths['/v1/spv-request/{slug}'] = d.paths['/v1/spv-requests/{slug}'];
      delete d.paths['/v1/spv-requests/{slug}'];
    });
    expect(linesOf(doc)).toEqual([
      'fails missing-operation DELETE /v1/spv-requests/{slug} | operation | ',
      'fails missing-operation GET /v1/spv-requests/{slug} | operation | ',
      'info unknown-operation DELETE /v1/spv-request/{slug} | operation | ',
      'info unknown-operation GET /v1/spv-request/{slug} | operation | ',
    ]);
    const result = compareOpenApi(doc, context());
    const get = result.comparable
      ? result.findings.find((f) => f.operation === 'GET /v1/spv-requests/{slug}')
      : undefined;
    expect(get?.message).toBe(
      'this service does not describe GET /v1/spv-requests/{slug}: client.spvRequests.get() would get 404 or 405 (it describes GET /v1/spv-request/{slug}: renamed?)',
    );
  });

  it("a required header: fails, unless the client's defaultHeaders send it", () => {
    const doc = planted((d) => {
      d.paths['/v1/spv-requests'].get.parameters.push({
        name: 'X-Partner-Tenant',
        in: 'header',
        required: true,
        schema: { type: 'string' },
      });
    });
    expect(linesOf(doc)).toEqual(['fails required-header GET /v1/spv-requests | header X-Partner-Tenant | ']);
    expect(linesOf(doc, context('warn', ['x-partner-tenant']))).toEqual([]);
  });

  it('requests: a required body field or query parameter the SDK does not send, a lower row limit, another media type', () => {
    const doc = planted((d) => {
      d.components.schemas.InvestorCreateBody.properties.batchId = { type: 'string' };
      d.components.schemas.InvestorCreateBody.required.push('batchId');
      d.components.schemas.SubscriptionCreateBody.properties.subscriptions.maxItems = 100;
      d.paths['/v1/spv-requests'].get.parameters.push({ name: 'tenant', in: 'query', required: true });
      const form = d.paths['/v1/oauth2/tokens'].post.requestBody.content;
      d.paths['/v1/oauth2/tokens'].post.requestBody.content = { 'application/json': Object.values(form)[0] };
    });
    expect(linesOf(doc)).toEqual([
      'fails content-type POST /v1/oauth2/tokens | request body | ',
      'fails required-field POST /v1/investors | request body | batchId',
      'fails required-parameter GET /v1/spv-requests | query tenant | ',
      'fails row-limit POST /v1/spvs/{spv_slug}/subscriptions | request body | subscriptions',
    ]);
  });

  it('documents that cannot be compared say why', () => {
    expect(compareOpenApi({ swagger: '2.0', paths: {} }, context())).toEqual({
      comparable: false,
      reason: 'a Swagger 2.0 document (OpenAPI 3.x is compared)',
    });
    expect(compareOpenApi('<html>', context())).toEqual({
      comparable: false,
      reason: 'the body is not a JSON object',
    });
  });
});

describe('the openapi check end to end, over a socket', () => {
  const server = useTestServer();
  let doc: Doc;
  const serve = () =>
    server().fallback((request) => {
      if (request.path === '/public/hc') return { body: { status: 'ok' } };
      if (request.path === '/openapi.json')
        return doc === undefined ? { status: 404, body: {} } : { body: doc };
      return { status: 404, body: {} };
    });

  it('serves a planted document: the check fails, and its findings say what to change', async () => {
    doc = planted((d) => {
      d.paths['/v1/spv-requests'].get.parameters.push({
        name: 'X-Partner-Tenant',
        in: 'header',
        required: true,
      });
    });
    serve();
    const client = new PartnerEquity({ baseUrl: server().url, logLevel: 'off', responseValidation: 'warn' });
    const report = await client.doctor({ only: ['openapi'] });
    await client.close();
    expect(checkOf(report, 'openapi')).toMatchObject({
      status: 'fails',
      explanation:
        'GET /openapi.json (OpenAPI 3.1.0) differs from what the SDK expects: 1 would fail, 0 tolerated, 0 informational',
      fix: "Each 'fails' line says what to change (defaultHeaders, chunkSize…), or what to raise with the service team",
    });
    expect(report).toMatchObject({ ok: false, status: 'fails' });
    expect(server().requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /public/hc',
      'GET /openapi.json',
    ]);
  });

  it('no /openapi.json: differs, nothing compared; a document given instead is compared', async () => {
    doc = undefined;
    serve();
    const client = new PartnerEquity({ baseUrl: server().url, logLevel: 'off' });
    const missing = await client.doctor({ only: ['openapi'] });
    expect(checkOf(missing, 'openapi')).toMatchObject({ status: 'differs' });
    expect(checkOf(missing, 'openapi').explanation).toMatch(
      /^GET \/openapi\.json answered 404: nothing to compare/,
    );
    const given = await client.doctor({ only: ['openapi'], openapi: sdkOpenApiDocument() });
    await client.close();
    expect(checkOf(given, 'openapi')).toMatchObject({
      status: 'ok',
      explanation: `the document given (OpenAPI 3.1.0) describes the ${Object.keys(OPERATIONS).length} operations the SDK calls as it reads and sends them`,
    });
  });
});
