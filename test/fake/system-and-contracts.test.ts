import { compileErrors, validate } from '@readme/openapi-parser';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import {
  ContractCatalogList,
  ContractPrimitiveList,
  ContractSample,
  ContractSampleList,
  ContractTemplate,
  ContractTemplateList,
  ContractVersionList,
  HealthResponse,
  OpenApiDocument,
  RootResponse,
} from '../../src/testing/wire/index.js';
import { idem, startFake } from './helpers.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

async function setup() {
  const started = await startFake();
  fake = started.fake;
  return started;
}

describe('system endpoints', () => {
  it('/, /public/hc and /docs answer 200 without a token; every response has Date and X-Request-Id', async () => {
    const { call, partner } = await setup();
    const root = await call('GET', '/');
    expect(RootResponse.parse(root.body)).toMatchObject({
      version: '0.1.0',
      openapiUrl: `${partner.baseUrl}/openapi.json`,
    });
    const health = await call('GET', '/public/hc');
    expect(HealthResponse.parse(health.body).status).toBe('ok');
    const docs = await call('GET', '/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(docs.text).toContain('/v1/spv-requests/{slug}');
    expect(docs.text).not.toContain('/files/');
    for (const reply of [root, health, docs]) {
      expect(reply.headers.get('x-request-id')).toMatch(/^req_/);
      expect(reply.headers.get('date')).toBe(new Date(fake.clock.now()).toUTCString());
    }
  });

  it('/openapi.json is a valid OpenAPI 3.1 document generated from the route table and schemas', async () => {
    const { call } = await setup();
    const reply = await call('GET', '/openapi.json');
    const doc = OpenApiDocument.parse(reply.body);
    const result = await validate(structuredClone(reply.body));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.0');
    // Its operations are the spec's: test/fake/alternate-profile-openapi.test.ts checks them in both profiles.
    const create = (
      doc.paths['/v1/spv-requests'] as Record<string, { parameters: unknown[]; responses: object }>
    )['post']!;
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }),
    );
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '404', '409', '422']);
    const components = (reply.body.components.schemas ?? {}) as Record<string, { properties?: object }>;
    expect(Object.keys(components.SpvRequest!.properties!)).toContain('materialisedRefs');
  });

  it('unknown routes answer the 404 envelope', async () => {
    const { call } = await setup();
    const reply = await call('POST', '/v1/nothing-here');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({
      code: 'not_found',
      errorId: expect.stringMatching(/^err_/),
      validationErrors: [],
    });
  });
});

describe('contracts', () => {
  it('lists versions and serves every kind of document per version, without a token', async () => {
    const { call } = await setup();
    const versions = ContractVersionList.parse((await call('GET', '/v1/contracts')).body);
    expect(versions.latest).toBe('2025-06');
    expect(versions.versions.map((v) => v.version)).toEqual(['2024-01', '2025-06']);
    const lists = {
      templates: ContractTemplateList,
      catalogs: ContractCatalogList,
      primitives: ContractPrimitiveList,
      samples: ContractSampleList,
    };
    for (const { version } of versions.versions) {
      for (const [kind, schema] of Object.entries(lists)) {
        const list = await call('GET', `/v1/contracts/${kind}/${version}`);
        expect(list.status).toBe(200);
        const docs = (schema.parse(list.body) as Record<string, Array<{ name: string }>>)[kind]!;
        expect(docs.length).toBeGreaterThan(0);
        for (const doc of docs) {
          const one = await call('GET', `/v1/contracts/${kind}/${version}/${doc.name}`);
          expect(one.status).toBe(200);
          expect(one.body).toEqual(doc);
        }
      }
    }
  });

  it('templates are JSON Schema (2020-12) documents', async () => {
    const { call } = await setup();
    const template = ContractTemplate.parse(
      (await call('GET', '/v1/contracts/templates/2025-06/spv-standard')).body,
    );
    expect(template.schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: expect.arrayContaining(['name', 'currency', 'targetRaise', 'shareClasses']),
      additionalProperties: false,
    });
  });

  it('every sample payload is accepted by POST /v1/spv-requests with its version', async () => {
    const { call, token } = await setup();
    for (const version of ['2024-01', '2025-06']) {
      const { samples } = (await call('GET', `/v1/contracts/samples/${version}`)).body as {
        samples: unknown[];
      };
      for (const raw of samples) {
        const sample = ContractSample.parse(raw);
        const created = await call('POST', '/v1/spv-requests', {
          token,
          headers: idem(),
          json: sample.payload,
        });
        expect(created.status, created.text).toBe(201);
        expect(created.body.templateVersion).toBe(version);
        const approved = fake.admin.approveSpvRequest(created.body.spvRequestSlug);
        expect(approved.feesAndCarry!.shareClasses.length).toBeGreaterThan(0);
      }
    }
  });

  it('422 for an unknown version or document name (the spec lists only 200 and 422)', async () => {
    const { call } = await setup();
    const version = await call('GET', '/v1/contracts/templates/1999-01');
    expect(version.status).toBe(422);
    expect(version.body.detail[0]).toMatchObject({ loc: ['path', 'version'], type: 'enum' });
    const name = await call('GET', '/v1/contracts/catalogs/2025-06/unknown-catalog');
    expect(name.status).toBe(422);
    expect(name.body.detail[0].loc).toEqual(['path', 'catalog_name']);
    for (const kind of ['primitives', 'samples']) {
      expect((await call('GET', `/v1/contracts/${kind}/nope`)).status).toBe(422);
      expect((await call('GET', `/v1/contracts/${kind}/2025-06/nope`)).status).toBe(422);
    }
  });
});
