// Issue 27, finding 3: github and shopify sign neither the id header nor a timestamp, so a captured delivery
// replayed with another id header used to be handled as a new message, forever.
import { describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../../src/webhooks/index.js';
import { BUILDS, completedEvent, NOW_MS, NOW_S } from './fixtures.js';
import { PRESET_SECRETS, REFERENCE_SIGNERS } from './reference-signers.js';

const body = JSON.stringify(completedEvent);
const DAY_MS = 86_400_000;

describe.each(BUILDS)('replaying a captured delivery — %s', (_build, Webhook) => {
  it.each(['github', 'shopify'] as const)(
    '%s: the same signed body under a new id header is a duplicate, handled once',
    async (preset) => {
      let now = NOW_MS;
      const webhook = new Webhook({ secret: PRESET_SECRETS[preset], scheme: preset, now: () => now });
      const handled: string[] = [];
      const receiver = new WebhookReceiver(webhook, { now: () => now }).onAny((event) => {
        handled.push(event.webhookId);
      });
      const captured = REFERENCE_SIGNERS[preset]({
        secret: PRESET_SECRETS[preset],
        id: 'id-1',
        timestamp: 0,
        body,
      });
      const idHeader = webhook.scheme.idHeader!;
      expect(await receiver.receive(body, captured)).toMatchObject({ status: 204, outcome: 'handled' });

      now += DAY_MS - 1000; // a day later, still inside the default 24 h id memory
      for (const id of ['id-2', 'id-3']) {
        const replay = { ...captured, [idHeader]: id };
        expect(await receiver.receive(body, replay)).toMatchObject({ status: 204, outcome: 'duplicate' });
      }
      expect(handled).toHaveLength(1);
    },
  );

  it('keys on the body when the id header is outside the signature, on the id when it is signed', async () => {
    const secret = PRESET_SECRETS.stripe;
    const stripe = new Webhook({
      secret,
      scheme: { preset: 'stripe', idHeader: 'x-event-id' },
      now: () => NOW_MS,
    });
    const stripeReceiver = new WebhookReceiver(stripe, { now: () => NOW_MS });
    const signed = REFERENCE_SIGNERS.stripe({ secret, id: '', timestamp: NOW_S, body });
    await stripeReceiver.receive(body, { ...signed, 'x-event-id': 'evt_1' });
    await expect(stripeReceiver.receive(body, { ...signed, 'x-event-id': 'evt_2' })).resolves.toMatchObject({
      outcome: 'duplicate',
    });

    // standard-webhooks signs its id: the id stays the key, and changing it breaks the signature.
    const standardSecret = PRESET_SECRETS['standard-webhooks'];
    const receiver = new WebhookReceiver(new Webhook({ secret: standardSecret, now: () => NOW_MS }), {
      now: () => NOW_MS,
    });
    const captured = REFERENCE_SIGNERS['standard-webhooks']({
      secret: standardSecret,
      id: 'msg_1',
      timestamp: NOW_S,
      body,
    });
    const first = await receiver.receive(body, captured);
    expect(first).toMatchObject({ outcome: 'handled', event: { webhookId: 'msg_1' } });
    expect(await receiver.receive(body, captured)).toMatchObject({ outcome: 'duplicate' });
    expect(await receiver.receive(body, { ...captured, 'webhook-id': 'msg_2' })).toMatchObject({
      status: 400,
      outcome: 'rejected',
    });
  });
});
