import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhooks/index.js';
import { BUILDS, completedEvent, OTHER_SECRET, SECRET } from './fixtures.js';

// The standardwebhooks package checks timestamps against the real clock, so these tests sign "now".
const nowSeconds = () => Math.floor(Date.now() / 1000);
const multibyte = { ...completedEvent, data: { ...completedEvent.data, note: 'Zoë 🚀 株式' } };

describe.each(BUILDS)('interoperability with the standardwebhooks package — %s', (_name, Webhook) => {
  it('verifies what standardwebhooks signs', async () => {
    const ours = new Webhook({ secret: SECRET });
    for (const event of [completedEvent, multibyte]) {
      const payload = JSON.stringify(event);
      const id = `msg_${crypto.randomUUID()}`;
      const timestamp = new Date();
      const signature = new StandardWebhook(SECRET).sign(id, timestamp, payload);
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      };
      await expect(ours.verify(payload, headers)).resolves.toMatchObject({ ...event, webhookId: id });
      await expect(ours.verify(Buffer.from(payload), headers)).resolves.toMatchObject({ type: event.type });
    }
  });

  it('produces signatures standardwebhooks verifies, and refuses the same tampering it refuses', async () => {
    const ours = new Webhook({ secret: SECRET });
    const theirs = new StandardWebhook(SECRET);
    for (const event of [completedEvent, multibyte]) {
      const payload = JSON.stringify(event);
      const headers = await ours.sign({ payload, timestamp: nowSeconds() });
      expect(theirs.verify(payload, headers)).toEqual(event);
      const tampered = payload.replace('spv_alpha', 'spv_omega');
      expect(() => theirs.verify(tampered, headers)).toThrow();
      await expect(ours.verify(tampered, headers)).rejects.toMatchObject({ reason: 'no_matching_signature' });
    }
  });

  it('agrees with standardwebhooks on a second secret, byte for byte', async () => {
    const payload = JSON.stringify(multibyte);
    const timestamp = nowSeconds();
    const headers = await signWebhook({ secret: OTHER_SECRET, id: 'msg_x', timestamp, payload });
    const theirs = new StandardWebhook(OTHER_SECRET).sign('msg_x', new Date(timestamp * 1000), payload);
    expect(headers['webhook-signature']).toBe(theirs);
  });
});
