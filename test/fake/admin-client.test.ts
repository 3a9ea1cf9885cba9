import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/index.js';
import { FakeAdminApiError, FakePartnerEquity, fakeAdminClient } from '../../src/testing/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { investor, spvBody, startReceiver } from './helpers.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = 'admin-token-for-tests-0123456789';

/** A fake with the admin API behind a token, a partner client, and the typed admin client. */
async function setUp(onTestFinished: (fn: () => Promise<void>) => void) {
  const fake = new FakePartnerEquity({ adminApi: { token: TOKEN } });
  onTestFinished(() => fake.close());
  const { baseUrl } = await fake.listen();
  const client = new PartnerEquity({ ...(await fake.createPartner()), clock: fake.clock, logLevel: 'off' });
  onTestFinished(() => client.close());
  return { fake, client, baseUrl, admin: fakeAdminClient({ baseUrl, adminToken: TOKEN }) };
}

describe('fakeAdminClient: the admin API over HTTP, typed', () => {
  it('lists investors, subscriptions and a snapshot with ISO timestamps, as the API writes times', async ({
    onTestFinished,
  }) => {
    const { fake, client, admin } = await setUp(onTestFinished);
    const request = await client.spvRequests.create(spvBody());
    const approved = await admin.approveSpvRequest(request.spvRequestSlug);
    const { succeeded } = await client.investors.create([investor('inv-ada'), investor('inv-bob')]);
    fake.admin.createPerson(fake.admin.listSpvRequests().items[0]!.clientId, {
      email: 'walk-in@example.com',
      firstName: 'Walk',
      lastName: 'In',
    });
    await client.subscriptions.create(approved.materialisedRefs!.vehicleSlug, [
      {
        servicePersonId: succeeded[0]!.servicePersonId,
        shareClassSlug: approved.feesAndCarry!.shareClasses![0]!.slug,
        lumpSum: { currency: 'EUR', value: '1000.00' },
      },
    ]);

    const persons = await admin.listPersons();
    expect(persons.total).toBe(3);
    expect(persons.items.map((p) => p.email)).toEqual([
      'walk-in@example.com',
      'inv-bob@example.com',
      'inv-ada@example.com',
    ]);
    expect(persons.items.every((p) => ISO.test(p.createdAt))).toBe(true);
    const ada = await admin.listPersons({ partnerInvestorId: 'inv-ada' });
    expect(ada.items.map((p) => p.id)).toEqual([succeeded[0]!.servicePersonId]);

    const subscriptions = await admin.listSubscriptions({ status: ['awaiting-signed-form'] });
    expect(subscriptions.total).toBe(1);
    expect(subscriptions.items[0]!.createdAt).toMatch(ISO);

    const snapshot = await admin.snapshot();
    expect(snapshot).toEqual(fake.admin.snapshot());
    expect(snapshot.persons).toHaveLength(3);
    expect(snapshot.persons[0]!.createdAt).toMatch(ISO);
    expect(snapshot.spvRequests[0]!.status).toBe('approved');
  });

  it('sends the admin token and JSON, and a refusal is a typed error with its status and code', async ({
    onTestFinished,
  }) => {
    const { baseUrl, admin } = await setUp(onTestFinished);
    const error = await admin.approveSpvRequest('spvr_missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FakeAdminApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });

    const anonymous = fakeAdminClient({ baseUrl });
    await expect(anonymous.settings()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(await admin.updateSettings({ autoApproveSpvRequests: true })).toEqual({
      autoApproveSpvRequests: true,
    });
    const wrong = await anonymous.listPersons().catch((e: Error) => e.message);
    expect(wrong).not.toContain(TOKEN);
  });

  it('moves webhooks to another target, secret and scheme at runtime, and lists the deliveries', async ({
    onTestFinished,
  }) => {
    const { fake, client, admin } = await setUp(onTestFinished);
    const first = await startReceiver();
    const second = await startReceiver();
    onTestFinished(first.close);
    onTestFinished(second.close);

    const generated = await admin.setWebhookTarget({ url: first.url });
    expect(generated).toEqual({
      scheme: 'standard-webhooks',
      endpoints: [{ id: expect.any(String), url: first.url }],
      secret: expect.stringMatching(/^whsec_/),
    });
    await client.spvRequests.create(spvBody());
    await fake.idle();

    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const moved = await admin.setWebhookTarget({ url: second.url, secret, scheme: 'stripe' });
    // A secret the caller gave is never shown back, nor is any secret in GET /webhooks.
    expect(moved).toEqual({ scheme: 'stripe', endpoints: [{ id: expect.any(String), url: second.url }] });
    expect(JSON.stringify(await admin.webhookTarget())).not.toContain('whsec_');
    await client.spvRequests.create(spvBody({ name: 'Second' }));
    await fake.idle();
    expect(second.received).toHaveLength(1);

    expect(first.received).toHaveLength(1);
    const verified = await new Webhook({ secret, scheme: 'stripe' }).verify(
      second.received[0]!.body,
      second.received[0]!.headers,
    );
    expect(verified.type).toBe('spv_request.created');

    const deliveries = await admin.listDeliveries({ status: 'delivered' });
    expect(deliveries.total).toBe(2);
    expect(deliveries.items.map((d) => d.url)).toEqual([second.url, first.url]);
    expect(deliveries.items[0]!.attempts[0]!.at).toMatch(ISO);

    await expect(
      admin.setWebhookTarget({ secret: 'not-a-secret', scheme: 'standard-webhooks' }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('secret:') });
    expect((await admin.webhookTarget()).scheme).toBe('stripe'); // a refused change changes nothing
    expect(await admin.setWebhookTarget({ url: null })).toEqual({ scheme: 'stripe', endpoints: [] });
  });
});
