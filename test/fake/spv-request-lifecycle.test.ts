import { afterEach, describe, expect, it } from 'vitest';
import { FakeAdminError, type FakePartnerEquity } from '../../src/testing/index.js';
import { SpvRequest, SpvRequestPage } from '../../src/testing/wire/index.js';
import { http, idem, login, spvBody, startFake } from './helpers.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

async function setup() {
  const started = await startFake();
  fake = started.fake;
  const create = async (name = 'Acme SPV') => {
    const reply = await started.call('POST', '/v1/spv-requests', {
      token: started.token,
      headers: idem(),
      json: spvBody({ name }),
    });
    return SpvRequest.parse(reply.body);
  };
  return { ...started, create };
}

describe('SPV request transitions (the spec table)', () => {
  it('pending-review → cancelled by DELETE (cancelledAt set); DELETE again is 409', async () => {
    const { call, token, create } = await setup();
    const request = await create();
    await fake.clock.advance(5_000);
    const cancelled = await call('DELETE', `/v1/spv-requests/${request.spvRequestSlug}`, { token });
    expect(cancelled.status).toBe(200);
    expect(SpvRequest.parse(cancelled.body)).toMatchObject({
      status: 'cancelled',
      cancelledAt: new Date(fake.clock.now()).toISOString(),
      updatedAt: new Date(fake.clock.now()).toISOString(),
      createdAt: request.createdAt,
    });
    const again = await call('DELETE', `/v1/spv-requests/${request.spvRequestSlug}`, { token });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('spv_request_terminal');
  });

  it('pending-review → approved by review: SPV materialised with share classes, spv_request.completed', async () => {
    const { call, token, create } = await setup();
    const request = await create();
    const approved = fake.admin.approveSpvRequest(request.spvRequestSlug);
    const read = SpvRequest.parse(
      (await call('GET', `/v1/spv-requests/${request.spvRequestSlug}`, { token })).body,
    );
    expect(read).toEqual(approved);
    expect(read.status).toBe('approved');
    expect(read.approvedAt).toBeDefined();
    expect(Object.keys(read.materialisedRefs!)).toEqual([
      'opportunitySlug',
      'vehicleSlug',
      'spSlug',
      'spcSlug',
    ]);
    expect(read.feesAndCarry!.shareClasses).toEqual([
      {
        name: 'Class A',
        slug: 'class-a',
        managementFeePercent: '2',
        carryPercent: '20',
        setupFee: { amount: '500', currency: 'EUR' },
      },
      {
        name: 'Class B',
        slug: 'class-b',
        managementFeePercent: '1.5',
        carryPercent: '15',
        setupFee: { amount: '0', currency: 'EUR' },
      },
    ]);
    expect(fake.admin.snapshot().spvs).toEqual([
      expect.objectContaining({
        slug: read.materialisedRefs!.vehicleSlug,
        currency: 'EUR',
        spvRequestSlug: read.spvRequestSlug,
      }),
    ]);
    const completed = fake.webhooks.events.filter((e) => e.type === 'spv_request.completed');
    expect(completed.map((e) => e.data)).toEqual([approved]);
    const denied = await call('DELETE', `/v1/spv-requests/${request.spvRequestSlug}`, { token });
    expect(denied.status).toBe(409);
  });

  it('pending-review → rejected (rejectionReason) and → cancelled by an administrator; both terminal', async () => {
    const { call, token, create } = await setup();
    const rejected = await create('To reject');
    const cancelled = await create('To cancel');
    fake.admin.rejectSpvRequest(rejected.spvRequestSlug, 'Target raise too small');
    fake.admin.cancelSpvRequest(cancelled.spvRequestSlug);
    const r = (await call('GET', `/v1/spv-requests/${rejected.spvRequestSlug}`, { token })).body;
    expect(r).toMatchObject({ status: 'rejected', rejectionReason: 'Target raise too small' });
    const c = (await call('GET', `/v1/spv-requests/${cancelled.spvRequestSlug}`, { token })).body;
    expect(c).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) });
    for (const slug of [rejected.spvRequestSlug, cancelled.spvRequestSlug]) {
      expect((await call('DELETE', `/v1/spv-requests/${slug}`, { token })).status).toBe(409);
      expect(() => fake.admin.approveSpvRequest(slug)).toThrow(FakeAdminError);
    }
    expect(fake.webhooks.events.map((e) => e.type)).toEqual(['spv_request.created', 'spv_request.created']);
  });
});

describe('GET /v1/spv-requests and /v1/spv-requests/{slug}', () => {
  it('pages newest first with count/skip/limit and filters by status', async () => {
    const { call, token, create } = await setup();
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await create(`SPV number ${i}`));
    fake.admin.approveSpvRequest(made[0]!.spvRequestSlug);
    const first = SpvRequestPage.parse((await call('GET', '/v1/spv-requests', { token })).body);
    expect(first).toMatchObject({ count: 12, skip: 0, limit: 10 });
    expect(first.documents.map((d) => d.attributes['name'])).toEqual(
      made
        .slice(2)
        .reverse()
        .map((d) => d.attributes['name']),
    );
    const second = SpvRequestPage.parse(
      (await call('GET', '/v1/spv-requests?page=2&perPage=10', { token })).body,
    );
    expect(second).toMatchObject({ count: 12, skip: 10, limit: 10 });
    expect(second.documents).toHaveLength(2);
    const beyond = (await call('GET', '/v1/spv-requests?page=9', { token })).body;
    expect(beyond).toMatchObject({ documents: [], count: 12, skip: 80 });
    const approved = (await call('GET', '/v1/spv-requests?status=approved&perPage=100', { token })).body;
    expect(approved.count).toBe(1);
    expect(approved.documents[0].spvRequestSlug).toBe(made[0]!.spvRequestSlug);
  });

  it.each([
    ['perPage=0', 'perPage'],
    ['perPage=101', 'perPage'],
    ['perPage=abc', 'perPage'],
    ['page=0', 'page'],
    ['page=1.5', 'page'],
    ['status=open', 'status'],
  ])('422 for %s', async (query, field) => {
    const { call, token } = await setup();
    const reply = await call('GET', `/v1/spv-requests?${query}`, { token });
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].loc).toEqual(['query', field]);
  });

  it('get: 200, 404 for an unknown slug, 422 for a malformed one, 401 without a token', async () => {
    const { call, token, create } = await setup();
    const request = await create();
    expect((await call('GET', `/v1/spv-requests/${request.spvRequestSlug}`, { token })).body).toEqual(
      request,
    );
    const missing = await call('GET', '/v1/spv-requests/spvr_missing', { token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('spv_request_not_found');
    const malformed = await call('GET', '/v1/spv-requests/bad%20slug', { token });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(['path', 'slug']);
    expect((await call('DELETE', '/v1/spv-requests/bad%20slug', { token })).status).toBe(422);
    expect((await call('DELETE', '/v1/spv-requests/spvr_missing', { token })).status).toBe(404);
    expect((await call('GET', `/v1/spv-requests/${request.spvRequestSlug}`)).status).toBe(401);
    expect((await call('GET', '/v1/spv-requests')).status).toBe(401);
  });

  it('scoping: client B never sees, reads or cancels client A’s requests', async () => {
    const { create } = await setup();
    const mine = await create();
    const other = await fake.createPartner();
    const token = (await login(fake, other)).accessToken;
    const call = http(other.baseUrl);
    expect((await call('GET', '/v1/spv-requests', { token })).body).toMatchObject({
      documents: [],
      count: 0,
    });
    expect((await call('GET', `/v1/spv-requests/${mine.spvRequestSlug}`, { token })).status).toBe(404);
    expect((await call('DELETE', `/v1/spv-requests/${mine.spvRequestSlug}`, { token })).status).toBe(404);
    expect(fake.admin.snapshot().spvRequests[0]!.status).toBe('pending-review');
  });
});
