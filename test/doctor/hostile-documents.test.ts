import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import type { DoctorGroup, DoctorReport } from '../../src/doctor/doctor-report.js';
import { compareOpenApi } from '../../src/doctor/openapi/compare-openapi.js';
import { type Reply, useTestServer } from '../helpers/test-server.js';
import { checkOf, statuses } from './harness.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const listDocument = (schema: unknown, schemas: Record<string, unknown>) => ({
  openapi: '3.1.0',
  paths: {
    '/v1/spv-requests': {
      get: { responses: { '200': { description: '', content: { 'application/json': { schema } } } } },
    },
  },
  components: { schemas },
});
/** An object of `width` fields, each a `$ref` to `name`. */
const fields = (name: string, width = 4) => ({
  type: 'object',
  properties: Object.fromEntries([...'abcdefgh'].slice(0, width).map((field) => [field, ref(name)])),
});

/** Security review finding 2: `$ref`s fanning out 4 ways over 12 levels, 4^12 nodes when each use is expanded. */
function fanOut(levels: number) {
  const schemas: Record<string, unknown> = { [`L${levels}`]: { type: 'string' } };
  for (let i = 0; i < levels; i += 1) schemas[`L${i}`] = fields(`L${i + 1}`);
  return listDocument(ref('L0'), schemas);
}

/**
 * Two distinct but equal schemas per level, each the `anyOf` of both: merging them pairs every field with
 * its twin, 6^levels merges however `$ref`s are resolved. Only the budget stops it.
 */
function mergeBomb(levels: number) {
  const schemas: Record<string, unknown> = {
    [`A${levels}`]: { type: 'string' },
    [`B${levels}`]: { type: 'string' },
  };
  for (let i = 0; i < levels; i += 1) {
    schemas[`A${i}`] = { anyOf: [fields(`A${i + 1}`, 6), fields(`B${i + 1}`, 6)] };
    schemas[`B${i}`] = { anyOf: [fields(`A${i + 1}`, 6), fields(`B${i + 1}`, 6)] };
  }
  return listDocument(ref('A0'), schemas);
}

const context = {
  responseValidation: 'warn' as const,
  hasCredentials: false,
  defaultHeaders: new Set<string>(),
};

describe('the doctor on hostile documents and answers: every check ends in the report', () => {
  const server = useTestServer();
  /** A service answering /public/hc with `hc` and /openapi.json with `openapi`; nothing else is asked. */
  function serve(hc: Reply, openapi?: Reply) {
    server().fallback((request) => {
      if (request.path === '/public/hc') return hc;
      if (request.path === '/openapi.json' && openapi !== undefined) return openapi;
      return { status: 404, body: {} };
    });
  }
  async function doctor(
    only: DoctorGroup[] = ['connection', 'openapi'],
    options: Partial<ClientOptions> = {},
  ): Promise<DoctorReport> {
    const client = new PartnerEquity({ baseUrl: server().url, logLevel: 'off', ...options } as ClientOptions);
    try {
      return await client.doctor({ only });
    } finally {
      await client.close();
    }
  }
  const healthy: Reply = { body: { status: 'ok' } };

  it('a 2.5 KB document whose $refs fan out 4 ways over 12 levels is compared, each $ref resolved once', async () => {
    const doc = fanOut(12);
    expect(JSON.stringify(doc).length).toBeLessThan(2600);
    const result = compareOpenApi(doc, context);
    expect(result.comparable).toBe(true);
    serve(healthy, { body: doc });
    const report = await doctor();
    expect(checkOf(report, 'openapi').explanation).toMatch(
      /^GET \/openapi\.json \(OpenAPI 3\.1\.0\) differs/,
    );
  });

  it('a document that costs more than the budget to compare: the check fails, saying why', async () => {
    const doc = mergeBomb(12);
    expect(compareOpenApi(doc, context)).toMatchObject({
      comparable: false,
      fails: true,
      reason: expect.stringMatching(/^comparing it visits more than [\d,]+ schema nodes/),
    });
    serve(healthy, { body: doc });
    const check = checkOf(await doctor(), 'openapi');
    expect(check.status).toBe('fails');
    expect(check.explanation).toMatch(/^GET \/openapi\.json: comparing it visits more than/);
  });

  it('a malformed $ref pointer: the check fails, naming it', async () => {
    const doc = listDocument(ref('%E0%A4%A'), {});
    serve(healthy, { body: doc });
    const check = checkOf(await doctor(), 'openapi');
    expect(check).toMatchObject({
      status: 'fails',
      explanation:
        'GET /openapi.json: $ref "#/components/schemas/%E0%A4%A" is not a valid JSON pointer; nothing compared',
    });
  });

  it('an /openapi.json over maxResponseBytes: the check fails, and says how to give the document instead', async () => {
    const big = { openapi: '3.1.0', paths: {}, padding: 'x'.repeat(100_000) };
    serve(healthy, { body: big });
    const report = await doctor(['connection', 'openapi'], { maxResponseBytes: 64 * 1024 });
    expect(checkOf(report, 'openapi')).toMatchObject({
      status: 'fails',
      explanation: 'GET /openapi.json: the body is over maxResponseBytes (65536 bytes); nothing compared',
      fix: expect.stringMatching(/--openapi-file/),
    });
  });

  it('a 200 from /public/hc that is not JSON: reachability fails, the other checks are not run', async () => {
    serve({ body: '<html>captive portal</html>', headers: { 'content-type': 'application/json' } });
    const report = await doctor();
    expect(statuses(report)).toEqual(['fails reachability', 'skipped openapi']);
    expect(checkOf(report, 'reachability').explanation).toBe(
      'GET /public/hc answered, but the body is not valid JSON: another server or a proxy answers at this URL',
    );
  });

  it('https to a port that speaks plain HTTP: says so, and does not blame a certificate', async () => {
    const report = await doctor(['connection'], { baseUrl: server().url.replace('http:', 'https:') });
    const check = checkOf(report, 'reachability');
    expect(check.status).toBe('fails');
    expect(check.explanation).toMatch(/^127\.0\.0\.1:\d+ speaks plain HTTP on this port, not TLS$/);
    expect(check.fix).not.toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(check.fix).toMatch(/http:\/\//);
  });
});
