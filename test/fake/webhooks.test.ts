import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakePartnerEquity, WEBHOOK_RETRY_DELAYS_MS } from '../../src/testing/index.js';
import { KnownWebhookEvent } from '../helpers/webhook-event-schemas.js';
import { approvedSpv, files, startFake, startReceiver, uploadForm } from './helpers.js';

let fake: FakePartnerEquity;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
afterEach(async () => {
  await fake.close();
  await receiver.close();
});

describe('webhook delivery', () => {
  it('delivers all five event types to a real receiver, each signed (verified with standardwebhooks)', async () => {
    receiver = await startReceiver();
    const started = await startFake();
    fake = started.fake;
    const { secret } = fake.webhooks.register({ url: receiver.url });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const { call, token } = started;
    const spv = await approvedSpv(fake, call, token);
    const sub = await call('POST', `/v1/spvs/${spv.spvSlug}/subscriptions`, {
      token,
      json: {
        subscriptions: [
          {
            servicePersonId: spv.personIds[0],
            lumpSum: { currency: 'EUR', value: '100' },
            shareClassSlug: 'class-a',
            partnerSubscriptionId: 'ps-1',
          },
        ],
      },
    });
    const base = `/v1/spvs/${spv.spvSlug}/subscription/${spv.personIds[0]}`;
    await call('POST', `${base}/forms`, { token, body: uploadForm(files.pdf, 'f.pdf') });
    await call('POST', `${base}/fundings`, {
      token,
      body: uploadForm(files.pdf, 'r.pdf', { amount: '100', currency: 'EUR', wireReference: 'W1' }),
    });
    fake.admin.completeSubscription(sub.body.results[0].subscriptionSlug);
    await fake.idle();

    const verifier = new Webhook(secret);
    const events = receiver.received.map((delivery) => {
      expect(delivery.headers['content-type']).toBe('application/json');
      verifier.verify(delivery.body, delivery.headers);
      return KnownWebhookEvent.parse(JSON.parse(delivery.body));
    });
    expect(events.map((e) => e.type)).toEqual([
      'spv_request.created',
      'spv_request.completed',
      'signed_subscription_form.uploaded',
      'funding_receipt.uploaded',
      'subscription.completed',
    ]);
    expect(receiver.received.map((d) => d.headers['webhook-id'])).toEqual(
      fake.webhooks.events.map((e) => e.id),
    );
    expect(receiver.received.map((d) => d.body)).toEqual(fake.webhooks.events.map((e) => e.body));
    expect(events[4]!.data).toMatchObject({
      status: 'completed',
      partnerInvestorId: 'inv-1',
      partnerSubscriptionId: 'ps-1',
    });
    const tampered = {
      ...receiver.received[0]!,
      body: receiver.received[0]!.body.replace('created', 'Created'),
    };
    expect(() => verifier.verify(tampered.body, tampered.headers)).toThrow();
    expect(fake.webhooks.deliveries.every((d) => d.state === 'delivered' && d.attempts.length === 1)).toBe(
      true,
    );
  });

  it('a failing receiver sees exactly 6 attempts on the 30 s / 5 min / 30 min / 2 h / 12 h schedule, then dead-letter', async () => {
    receiver = await startReceiver(() => 500);
    const started = await startFake();
    fake = started.fake;
    const { secret } = fake.webhooks.register({ url: receiver.url });
    const start = fake.clock.now();
    const created = await started.call('POST', '/v1/spv-requests', {
      token: started.token,
      headers: { 'idempotency-key': 'one' },
      json: {
        templateId: 'spv-club-deal',
        attributes: { name: 'Club', currency: 'USD', targetRaise: '1', maxInvestors: 2, carryPercent: '5' },
      },
    });
    expect(created.status).toBe(201);
    await fake.idle();
    expect(receiver.received).toHaveLength(1);
    for (const [i, delay] of WEBHOOK_RETRY_DELAYS_MS.entries()) {
      await fake.clock.advance(delay - 1);
      expect(receiver.received).toHaveLength(i + 1);
      await fake.clock.advance(1);
      expect(receiver.received).toHaveLength(i + 2);
    }
    const [delivery] = fake.webhooks.deliveries;
    expect(delivery!.attempts.map((a) => (a.at - start) / 1000)).toEqual([0, 30, 330, 2130, 9330, 52530]);
    expect(delivery!.attempts.every((a) => a.status === 500)).toBe(true);
    expect(fake.webhooks.deadLetters).toEqual([delivery]);
    await fake.clock.advance(7 * 24 * 3600 * 1000);
    expect(receiver.received).toHaveLength(6);
    // Same id on every attempt; each attempt is re-signed with its own timestamp.
    expect(new Set(receiver.received.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const stamps = receiver.received.map((d) => Number(d.headers['webhook-timestamp']));
    expect(stamps).toEqual(delivery!.attempts.map((a) => Math.floor(a.at / 1000)));
    new Webhook(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers);
  });

  it('a retry that succeeds stops the schedule; an unreachable URL counts as a failure', async () => {
    // 503 to the first attempt of each delivery, 200 to its retry. Keyed by the event id: when several
    // events are out at once, their first requests may reach the receiver in any order.
    const answered = new Set<string>();
    receiver = await startReceiver((_, headers) => {
      const id = headers['webhook-id'] ?? '';
      if (answered.has(id)) return 200;
      answered.add(id);
      return 503;
    });
    const started = await startFake();
    fake = started.fake;
    fake.webhooks.register({ url: receiver.url });
    fake.webhooks.register({ url: 'http://127.0.0.1:1/unreachable' });
    await approvedSpv(fake, started.call, started.token);
    await fake.idle();
    await fake.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]);
    const [toReceiver, toNowhere] = fake.webhooks.deliveries;
    expect(toReceiver!.state).toBe('delivered');
    expect(toReceiver!.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(toNowhere!.attempts[0]!.error).toBeDefined();
    expect(toNowhere!.state).toBe('pending');
  });

  it('the 60 s reconciler emits subscription.completed whose immediate emit was skipped — once', async () => {
    receiver = await startReceiver();
    const started = await startFake();
    fake = started.fake;
    fake.webhooks.register({ url: receiver.url, clientId: started.partner.clientId });
    const spv = await approvedSpv(fake, started.call, started.token);
    const sub = await started.call('POST', `/v1/spvs/${spv.spvSlug}/subscriptions`, {
      token: started.token,
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
    fake.admin.completeSubscription(sub.body.results[0].subscriptionSlug, { emitEvent: false });
    const completed = () => fake.webhooks.events.filter((e) => e.type === 'subscription.completed');
    expect(completed()).toHaveLength(0);
    await fake.clock.advance(60_000);
    expect(completed()).toHaveLength(1);
    await fake.clock.advance(600_000);
    expect(completed()).toHaveLength(1);
    expect(receiver.received.map((d) => JSON.parse(d.body).type)).toContain('subscription.completed');
  });

  it('an endpoint registered for one client gets none of another client’s events', async () => {
    receiver = await startReceiver();
    const started = await startFake();
    fake = started.fake;
    const other = await fake.createPartner();
    fake.webhooks.register({ url: receiver.url, clientId: other.clientId });
    await approvedSpv(fake, started.call, started.token);
    await fake.idle();
    expect(fake.webhooks.events.length).toBeGreaterThan(0);
    expect(receiver.received).toHaveLength(0);
  });
});
