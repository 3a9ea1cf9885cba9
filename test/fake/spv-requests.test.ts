import { afterEach, describe, expect, it } from 'vitest';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import { PartnerErrorBody, SpvRequest, ValidationErrorBody } from '../../src/testing/wire/index.js';
import { http, idem, login, spvBody, startFake } from './helpers.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

async function setup() {
  const started = await startFake();
  fake = started.fake;
  return started;
}

describe('POST /v1/spv-requests', () => {
  it('201 creates a pending-review request owned by the caller and emits spv_request.created', async () => {
    const { call, token, partner } = await setup();
    const reply = await call('POST', '/v1/spv-requests', { token, headers: idem(), json: spvBody() });
    expect(reply.status).toBe(201);
    const created = SpvRequest.parse(reply.body);
    expect(created).toMatchObject({
      status: 'pending-review',
      templateId: 'spv-standard',
      templateVersion: '2025-06',
      clientId: partner.clientId,
      tenantSlug: 'tenant-1',
      attributes: spvBody().attributes,
    });
    expect(created).not.toHaveProperty('approvedAt');
    expect(
      fake.webhooks.events.map((e) => [e.type, (e.data as { spvRequestSlug: string }).spvRequestSlug]),
    ).toEqual([['spv_request.created', created.spvRequestSlug]]);
  });

  it('422 without Idempotency-Key (required) or with a malformed one', async () => {
    const { call, token } = await setup();
    const missing = await call('POST', '/v1/spv-requests', { token, json: spvBody() });
    expect(missing.status).toBe(422);
    expect(ValidationErrorBody.parse(missing.body).detail).toEqual([
      { loc: ['header', 'Idempotency-Key'], msg: 'Field required', type: 'missing' },
    ]);
    const long = await call('POST', '/v1/spv-requests', {
      token,
      headers: idem('x'.repeat(256)),
      json: spvBody(),
    });
    expect(long.status).toBe(422);
    expect(fake.admin.snapshot().spvRequests).toHaveLength(0);
  });

  it('replays the first response for the same key and body, with Idempotent-Replayed: true', async () => {
    const { call, token } = await setup();
    const headers = idem();
    const first = await call('POST', '/v1/spv-requests', { token, headers, json: spvBody() });
    // Same body with keys in another order is the same request.
    const { templateId, attributes } = spvBody();
    const again = await call('POST', '/v1/spv-requests', {
      token,
      headers,
      json: { attributes, templateId },
    });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(fake.admin.snapshot().spvRequests).toHaveLength(1);
    expect(fake.webhooks.events).toHaveLength(1);
  });

  it('409 for the same key with a different body; the key is forgotten after 24 h of the fake clock', async () => {
    const { call, token, partner } = await setup();
    const headers = idem();
    await call('POST', '/v1/spv-requests', { token, headers, json: spvBody() });
    const conflict = await call('POST', '/v1/spv-requests', {
      token,
      headers,
      json: spvBody({ name: 'Other SPV' }),
    });
    expect(conflict.status).toBe(409);
    expect(PartnerErrorBody.parse(conflict.body).code).toBe('idempotency_key_conflict');
    await fake.clock.advance(24 * 3600 * 1000 - 1);
    const fresh = (await login(fake, partner)).accessToken; // the first token expired after an hour
    const replay = await call('POST', '/v1/spv-requests', { token: fresh, headers, json: spvBody() });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await fake.clock.advance(1);
    const anew = await call('POST', '/v1/spv-requests', {
      token: fresh,
      headers,
      json: spvBody({ name: 'Other SPV' }),
    });
    expect(anew.status).toBe(201);
    expect(anew.headers.get('idempotent-replayed')).toBeNull();
    expect(fake.admin.snapshot().spvRequests).toHaveLength(2);
  });

  it('keys are scoped per client: another client may use the same key', async () => {
    const { call, token } = await setup();
    const other = await fake.createPartner();
    const otherToken = (await login(fake, other)).accessToken;
    const headers = idem('shared-key');
    expect((await call('POST', '/v1/spv-requests', { token, headers, json: spvBody() })).status).toBe(201);
    const second = await http(other.baseUrl)('POST', '/v1/spv-requests', {
      token: otherToken,
      headers,
      json: spvBody({ name: 'B SPV' }),
    });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });

  it('400 contract_validation_failed names every bad attribute', async () => {
    const { call, token } = await setup();
    const reply = await call('POST', '/v1/spv-requests', {
      token,
      headers: idem(),
      json: spvBody({
        currency: 'EURO',
        targetRaise: 2500000,
        shareClasses: [{ name: 'A', managementFeePercent: '2', carryPercent: '120' }],
        colour: 'blue',
        name: undefined,
      }),
    });
    expect(reply.status).toBe(400);
    const body = PartnerErrorBody.parse(reply.body);
    expect(body.code).toBe('contract_validation_failed');
    const byAttribute = Object.fromEntries(body.validationErrors!.map((e) => [e.attribute, e.code]));
    expect(byAttribute).toEqual({
      name: 'required',
      currency: 'invalid_format',
      targetRaise: 'invalid_type',
      'shareClasses[0].carryPercent': 'invalid_value',
      colour: 'unknown_attribute',
    });
  });

  it('404 for an unknown template or a version without it; 422 for a malformed body', async () => {
    const { call, token } = await setup();
    const unknown = await call('POST', '/v1/spv-requests', {
      token,
      headers: idem(),
      json: { templateId: 'nope', attributes: {} },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('template_not_found');
    const wrongVersion = await call('POST', '/v1/spv-requests', {
      token,
      headers: idem(),
      json: { templateId: 'spv-club-deal', templateVersion: '2024-01', attributes: {} },
    });
    expect(wrongVersion.status).toBe(404);
    const malformed = await call('POST', '/v1/spv-requests', {
      token,
      headers: idem(),
      json: { attributes: 'x' },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([
      'body.templateId',
      'body.attributes',
    ]);
    const notJson = await call('POST', '/v1/spv-requests', {
      token,
      headers: { ...idem(), 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.body.detail[0].type).toBe('json_invalid');
  });

  it('413 for a JSON body over maxJsonBodyBytes', async () => {
    const started = await startFake({ maxJsonBodyBytes: 2_000 });
    fake = started.fake;
    const big = spvBody({ name: 'x'.repeat(3_000) });
    const reply = await started.call('POST', '/v1/spv-requests', {
      token: started.token,
      headers: idem(),
      json: big,
    });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe('payload_too_large');
  });

  it('401 without a token', async () => {
    const { call } = await setup();
    expect((await call('POST', '/v1/spv-requests', { headers: idem(), json: spvBody() })).status).toBe(401);
  });
});
