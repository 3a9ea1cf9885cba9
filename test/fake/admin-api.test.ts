import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { generateKeyPair, PartnerEquity } from '../../src/index.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { http, idem, investor, spvBody, startFake } from './helpers.js';

/** A subscription for each person in the SPV the partner's first request became. */
async function subscribe(
  call: ReturnType<typeof http>,
  token: string,
  spvSlug: string,
  people: string[],
  shareClassSlug: string,
) {
  const reply = await call('POST', `/v1/spvs/${spvSlug}/subscriptions`, {
    token,
    json: {
      subscriptions: people.map((servicePersonId, i) => ({
        servicePersonId,
        lumpSum: { currency: 'EUR', value: `${(i + 1) * 1000}.00` },
        shareClassSlug,
        partnerSubscriptionId: `sub-${i}`,
      })),
    },
  });
  expect(reply.status).toBe(201);
  return (reply.body.results as { subscriptionSlug: string }[]).map((r) => r.subscriptionSlug);
}

describe('the admin API (opt-in JSON over HTTP under /__admin)', () => {
  it('is off by default: the partner-facing fake answers its 404 envelope there', async ({
    onTestFinished,
  }) => {
    const { fake, call } = await startFake();
    onTestFinished(() => fake.close());
    const reply = await call('GET', '/__admin/spv-requests');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 'not_found', errorId: expect.any(String) });
  });

  it("registers a key from generateKeyPair(), then reviews that client's SPV requests", async ({
    onTestFinished,
  }) => {
    const fake = new FakePartnerEquity({ adminApi: true });
    onTestFinished(() => fake.close());
    const { baseUrl } = await fake.listen();
    const admin = http(`${baseUrl}/__admin`);
    const keys = await generateKeyPair();

    const registered = await admin('POST', '/clients', {
      json: { clientId: 'client_script', issuer: 'https://script.example', publicKey: keys.publicKeyJwk },
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      clientId: 'client_script',
      issuer: 'https://script.example',
      applicationName: 'client_script',
      provisioned: true,
    });
    // The PEM form and the JWK as JSON text (what `partner-equity keys generate` prints) register too.
    for (const [clientId, publicKey] of [
      ['client_pem', keys.publicKeyPem],
      ['client_jwk_text', JSON.stringify(keys.publicKeyJwk)],
    ] as const) {
      const reply = await admin('POST', '/clients', {
        json: { clientId, issuer: 'https://x.example', publicKey },
      });
      expect(reply.status, clientId).toBe(201);
    }
    // A second registration of one client id is a conflict.
    const again = await admin('POST', '/clients', {
      json: { clientId: 'client_script', issuer: 'https://script.example', publicKey: keys.publicKeyPem },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 'conflict', detail: 'Client client_script is already registered' });
    const bad = await admin('POST', '/clients', { json: { clientId: '', publicKey: 'not a key', color: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/clientId: .*; issuer: .*/);
    expect(bad.body.detail).toContain('color');
    const wrongKey = await admin('POST', '/clients', {
      json: { clientId: 'client_x', issuer: 'https://x.example', publicKey: 'not a key' },
    });
    expect(wrongKey).toMatchObject({ status: 400, body: { code: 'invalid_request' } });

    const client = new PartnerEquity({
      baseUrl,
      clientId: 'client_script',
      issuer: 'https://script.example',
      privateKey: keys.privateKeyPem,
      clock: fake.clock,
      logLevel: 'off',
    });
    onTestFinished(() => client.close());
    const first = await client.spvRequests.create(spvBody());
    const second = await client.spvRequests.create(spvBody({ name: 'Second SPV' }));
    const third = await client.spvRequests.create(spvBody({ name: 'Third SPV' }));

    const approved = await admin('POST', `/spv-requests/${first.spvRequestSlug}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      materialisedRefs: { vehicleSlug: expect.any(String) },
    });
    expect((await client.spvRequests.get(first.spvRequestSlug)).status).toBe('approved');
    expect(fake.webhooks.events.map((e) => e.type)).toContain('spv_request.completed');

    const rejected = await admin('POST', `/spv-requests/${second.spvRequestSlug}/reject`, {
      body: '{"reason":"Missing KYC"}', // bodies are JSON, said so (a form type is refused: see the gate's tests)
      headers: { 'content-type': 'application/json' },
    });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Missing KYC' });
    const twice = await admin('POST', `/spv-requests/${first.spvRequestSlug}/approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toMatch(/it is approved, not pending-review/);
    const unknown = await admin('POST', '/spv-requests/spvr_nope/cancel');
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });

    const pending = await admin('GET', '/spv-requests?status=pending-review');
    expect(pending.body).toMatchObject({
      total: 1,
      byStatus: { approved: 1, rejected: 1, 'pending-review': 1 },
      offset: 0,
      limit: 50,
      items: [{ spvRequestSlug: third.spvRequestSlug, status: 'pending-review' }],
    });
    const newest = await admin('GET', '/spv-requests?limit=2&clientId=client_script');
    expect(newest.body.total).toBe(3);
    expect(newest.body.items.map((r: { spvRequestSlug: string }) => r.spvRequestSlug)).toEqual([
      third.spvRequestSlug,
      second.spvRequestSlug,
    ]);
    const typo = await admin('GET', '/spv-requests?stauts=approved&limit=-1');
    expect(typo.status).toBe(400);
    expect(typo.body.detail).toBe(
      "unknown filter 'stauts' (use status, clientId, templateId, limit, offset); limit must be a whole number >= 0, got '-1'",
    );
    // Admin calls never pass through the partner pipeline: the request log holds the partner's calls only.
    expect(fake.requests.some((r) => r.path.startsWith('/__admin'))).toBe(false);
  });

  it('lists hundreds of subscriptions as counts and one page, filters them, and completes one', async ({
    onTestFinished,
  }) => {
    const { fake, partner, token, call } = await startFake({ adminApi: { prefix: '/_ops' } });
    onTestFinished(() => fake.close());
    const created = await call('POST', '/v1/spv-requests', { token, headers: idem(), json: spvBody() });
    const spv = fake.admin.approveSpvRequest(created.body.spvRequestSlug);
    const spvSlug = spv.materialisedRefs!.vehicleSlug;
    const ids = Array.from({ length: 300 }, (_, i) => `inv-${i}`);
    const people = await call('POST', '/v1/investors', {
      token,
      json: { investors: ids.map((id) => investor(id)) },
    });
    const personIds = (people.body.results as { servicePersonId: string }[]).map((r) => r.servicePersonId);
    const slugs = await subscribe(call, token, spvSlug, personIds, spv.feesAndCarry!.shareClasses[0]!.slug);
    fake.admin.cancelSubscription(slugs[0]!);

    const admin = http(`${partner.baseUrl}/_ops`);
    const index = await admin('GET', '');
    expect(index.body.routes).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/_ops/subscriptions/{slug}/complete' }),
    );
    const counts = await admin('GET', '/subscriptions?limit=0');
    expect(counts.body).toEqual({
      total: 300,
      byStatus: { 'awaiting-signed-form': 299, cancelled: 1 },
      offset: 0,
      limit: 0,
      items: [],
    });
    const one = await admin('GET', `/subscriptions?personId=${personIds[7]}`);
    expect(one.body.total).toBe(1);
    expect(one.body.items[0]).toMatchObject({ slug: slugs[7], spvSlug, lumpSum: { value: '8000.00' } });
    const page = await admin(
      'GET',
      '/subscriptions?status=awaiting-signed-form,cancelled&offset=295&limit=10',
    );
    expect(page.body.items).toHaveLength(5);
    expect(page.body.items.at(-1).slug).toBe(slugs[0]);

    const completed = await admin('POST', `/subscriptions/${slugs[1]}/complete`);
    expect(completed.body).toMatchObject({ subscriptionSlug: slugs[1], status: 'completed' });
    await fake.idle();
    expect(fake.webhooks.events.filter((e) => e.type === 'subscription.completed')).toHaveLength(1);
    const quiet = await admin('POST', `/subscriptions/${slugs[2]}/complete`, { json: { emitEvent: false } });
    expect(quiet.body.status).toBe('completed');
    expect(fake.webhooks.events.filter((e) => e.type === 'subscription.completed')).toHaveLength(1);
    expect((await admin('POST', `/subscriptions/${slugs[0]}/complete`)).status).toBe(409);
    expect((await admin('POST', `/subscriptions/${slugs[3]}/cancel`)).body.status).toBe('cancelled');
    const wrongMethod = await admin('GET', `/subscriptions/${slugs[3]}/cancel`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect((await admin('GET', '/nothing-here')).status).toBe(404);
  });

  it('auto-approves SPV requests when asked, by option or by PUT /settings', async ({ onTestFinished }) => {
    const { fake, token, call, partner } = await startFake({ adminApi: true, autoApproveSpvRequests: true });
    onTestFinished(() => fake.close());
    const created = await call('POST', '/v1/spv-requests', { token, headers: idem(), json: spvBody() });
    // The create call answers as the service does; the instant reviewer approves right after.
    expect(created.body.status).toBe('pending-review');
    const read = await call('GET', `/v1/spv-requests/${created.body.spvRequestSlug}`, { token });
    expect(read.body).toMatchObject({
      status: 'approved',
      materialisedRefs: { vehicleSlug: expect.any(String) },
    });
    expect(fake.webhooks.events.map((e) => e.type)).toEqual(['spv_request.created', 'spv_request.completed']);

    const admin = http(`${partner.baseUrl}/__admin`);
    expect((await admin('GET', '/settings')).body).toEqual({ autoApproveSpvRequests: true });
    const off = await admin('PUT', '/settings', { json: { autoApproveSpvRequests: false } });
    expect(off.body).toEqual({ autoApproveSpvRequests: false });
    const later = await call('POST', '/v1/spv-requests', { token, headers: idem(), json: spvBody() });
    const stays = await call('GET', `/v1/spv-requests/${later.body.spvRequestSlug}`, { token });
    expect(stays.body.status).toBe('pending-review');
    expect((await admin('PUT', '/settings', { json: { autoApprove: true } })).status).toBe(400);
  });

  it('injects, lists and clears faults at runtime: POST, GET and DELETE /faults', async ({
    onTestFinished,
  }) => {
    const { fake, token, call, partner } = await startFake({ adminApi: true });
    onTestFinished(() => fake.close());
    const admin = http(`${partner.baseUrl}/__admin`);
    const added = await admin('POST', '/faults', { json: { fault: 'POST /v1/investors 503 x2' } });
    expect(added.status).toBe(201);
    expect(added.body.faults).toMatchObject([
      { description: 'POST /v1/investors 503 x2', hits: 0, remaining: 2, spec: { status: 503, times: 2 } },
    ]);
    const refused = await admin('POST', '/faults', { json: { match: { path: '/v1/spvs' }, status: 503 } });
    expect(refused.status).toBe(400);
    expect(refused.body.detail ?? refused.body.message).toMatch(/match\.path is exact/);
    const reply = await call('POST', '/v1/investors', { token, json: { investors: [investor('i-1')] } });
    expect(reply.status).toBe(503);
    expect((await admin('GET', '/faults')).body.faults).toMatchObject([{ hits: 1, remaining: 1 }]);
    await admin('POST', '/faults', { json: { match: { pathPrefix: '/v1/spvs/' }, status: 500 } });
    const [first] = (await admin('GET', '/faults')).body.faults as { id: number }[];
    expect((await admin('DELETE', `/faults/${first!.id}`)).body.faults).toHaveLength(1);
    expect((await admin('DELETE', '/faults')).body).toEqual({ faults: [] });
    expect(fake.faults.pending()).toEqual([]);
  });

  it('reads the webhook secret back on loopback, and only there', async ({ onTestFinished }) => {
    const { fake, partner } = await startFake({ adminApi: { allowHosts: ['partner.test'] } });
    onTestFinished(() => fake.close());
    const admin = http(`${partner.baseUrl}/__admin`);
    expect((await admin('GET', '/webhooks/secret')).body).toEqual({ secret: null });
    const set = await admin('PUT', '/webhooks', { json: { url: 'http://127.0.0.1:9/hooks' } });
    expect(set.body.secret).toMatch(/^whsec_/);
    expect((await admin('GET', '/webhooks/secret')).body).toEqual({ secret: set.body.secret });
    // Named by another (allowed) host: the admin API answers, but never with the secret.
    const port = new URL(partner.baseUrl).port;
    const other = await request(`${partner.baseUrl}/__admin/webhooks/secret`, {
      headers: { host: `partner.test:${port}` },
    });
    expect(other.statusCode).toBe(404);
    expect(await other.body.text()).not.toContain(set.body.secret);
  });

  it('refuses a prefix that is not a path, or one inside the API', () => {
    for (const prefix of ['admin', '/v1/admin', '/__admin/', '/a b']) {
      expect(() => new FakePartnerEquity({ adminApi: { prefix } }), prefix).toThrow(/adminApi.prefix/);
    }
  });
});
