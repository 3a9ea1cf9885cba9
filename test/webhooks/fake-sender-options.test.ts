// The fake's webhook options: the signing scheme (shared with Webhook and the CLI) and minimal payloads.
import { afterEach, describe, expect, it } from 'vitest';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { approvedSpv, files, startFake, startReceiver, uploadForm } from '../fake/helpers.js';
import { REFERENCE_SIGNERS } from './reference-signers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(options: ConstructorParameters<typeof FakePartnerEquity>[0]) {
  const receiver = await startReceiver();
  closers.push(receiver.close);
  const started = await startFake(options);
  closers.push(() => started.fake.close());
  return { receiver, ...started };
}

describe('the fake sends in the configured scheme', () => {
  it('stripe: a raw secret, t=…,v1=… headers the reference signer agrees with, verified by Webhook', async () => {
    const { receiver, fake, call, token } = await setup({ webhooks: { scheme: 'stripe' } });
    const { secret } = fake.webhooks.register({ url: receiver.url });
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await approvedSpv(fake, call, token);
    await fake.idle();
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    const webhook = new Webhook({ secret, scheme: 'stripe', now: () => fake.clock.now() });
    for (const [i, delivered] of receiver.received.entries()) {
      expect(Object.keys(delivered.headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
      const timestamp = Math.floor(fake.webhooks.deliveries[i]!.attempts[0]!.at / 1000);
      const reference = REFERENCE_SIGNERS.stripe({ secret, id: '', timestamp, body: delivered.body });
      expect(delivered.headers['stripe-signature']).toBe(reference['stripe-signature']);
      await expect(webhook.verify(delivered.body, delivered.headers)).resolves.toMatchObject({ known: true });
    }
  });

  it('refuses options it cannot use when the fake is built, and secrets too short for the scheme', async () => {
    expect(() => new FakePartnerEquity({ webhooks: { retrySigning: 'sometimes' as never } })).toThrow(
      /webhooks\.retrySigning must be 'fresh' or 'original'/,
    );
    expect(() => new FakePartnerEquity({ webhooks: { payloads: 'tiny' as never } })).toThrow(
      /webhooks\.payloads must be 'full' or 'minimal'/,
    );
    expect(
      () =>
        new FakePartnerEquity({
          webhooks: { scheme: { preset: 'github', signatureEncoding: 'hex32' as never } },
        }),
    ).toThrow(/Invalid webhook scheme: signatureEncoding must be one of/);
    const fake = new FakePartnerEquity();
    closers.push(() => fake.close());
    expect(() => fake.webhooks.register({ url: 'http://127.0.0.1:9/x', secret: 'whsec_AAAA' })).toThrow(
      /3 bytes of key; whsec secrets need at least 24/,
    );
  });
});

describe('minimal payloads (webhooks.payloads: "minimal")', () => {
  it('sends only identifying fields, null where unknown, partnerInvestorId only when present', async () => {
    const { receiver, fake, call, token } = await setup({ webhooks: { payloads: 'minimal' } });
    const { secret } = fake.webhooks.register({ url: receiver.url });
    const spv = await approvedSpv(fake, call, token);
    const sub = await call('POST', `/v1/spvs/${spv.spvSlug}/subscriptions`, {
      token,
      json: {
        subscriptions: [
          {
            servicePersonId: spv.personIds[0],
            lumpSum: { currency: 'EUR', value: '100' },
            shareClassSlug: 'class-a',
          },
        ],
      },
    });
    const subscriptionSlug = sub.body.results[0].subscriptionSlug;
    const base = `/v1/spvs/${spv.spvSlug}/subscription/${spv.personIds[0]}`;
    await call('POST', `${base}/forms`, { token, body: uploadForm(files.pdf, 'f.pdf') });
    await call('POST', `${base}/fundings`, {
      token,
      body: uploadForm(files.pdf, 'r.pdf', { amount: '100', currency: 'EUR', wireReference: 'W1' }),
    });
    fake.admin.completeSubscription(subscriptionSlug);
    await fake.idle();

    const webhook = new Webhook({ secret, now: () => fake.clock.now() });
    const events = await Promise.all(receiver.received.map((d) => webhook.verify(d.body, d.headers)));
    const upload = {
      subscriptionSlug,
      spvSlug: spv.spvSlug,
      personId: spv.personIds[0],
      partnerSubscriptionId: null,
    };
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['spv_request.created', { spvRequestSlug: expect.any(String), status: 'pending-review' }],
      ['spv_request.completed', { spvRequestSlug: expect.any(String), status: 'approved' }],
      ['signed_subscription_form.uploaded', { ...upload, partnerInvestorId: 'inv-1' }],
      ['funding_receipt.uploaded', { ...upload, partnerInvestorId: 'inv-1' }],
      ['subscription.completed', { ...upload, status: 'completed', partnerInvestorId: 'inv-1' }],
    ]);
    expect(events.every((e) => e.known)).toBe(true);
  });
});
