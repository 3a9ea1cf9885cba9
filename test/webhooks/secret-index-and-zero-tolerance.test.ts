// Issue 27, mutation-test gaps: which secret is reported when several match, and toleranceSeconds: 0.
import { describe, expect, it } from 'vitest';
import { BUILDS, completedEvent, delivery, NOW_MS, NOW_S, OTHER_SECRET, SECRET } from './fixtures.js';

describe.each(BUILDS)('Webhook — %s', (_build, Webhook) => {
  it('reports the FIRST configured secret that matches when a delivery is signed with several', async () => {
    const first = await delivery(completedEvent, { secret: SECRET, id: 'msg_both' });
    const second = await delivery(completedEvent, { secret: OTHER_SECRET, id: 'msg_both' });
    // A sender mid-rotation signs with both secrets; the order of its entries must not matter.
    for (const signature of [
      `${first.headers['webhook-signature']} ${second.headers['webhook-signature']}`,
      `${second.headers['webhook-signature']} ${first.headers['webhook-signature']}`,
    ]) {
      const headers = { ...first.headers, 'webhook-signature': signature };
      for (const [secrets, expected] of [
        [[SECRET, OTHER_SECRET], 0],
        [[OTHER_SECRET, SECRET], 0],
        [[`whsec_${Buffer.alloc(32, 1).toString('base64')}`, OTHER_SECRET, SECRET], 1],
      ] as const) {
        const webhook = new Webhook({ secrets, now: () => NOW_MS });
        await expect(webhook.verify(first.body, headers)).resolves.toMatchObject({ secretIndex: expected });
      }
    }
  });

  it('with toleranceSeconds: 0 accepts a timestamp of exactly now and refuses one a second off', async () => {
    let now = NOW_MS;
    const webhook = new Webhook({ secret: SECRET, toleranceSeconds: 0, now: () => now });
    const exact = await delivery(completedEvent, { timestamp: NOW_S });
    await expect(webhook.verify(exact.body, exact.headers)).resolves.toMatchObject({ known: true });
    now = NOW_MS + 999; // still the same second
    await expect(webhook.verify(exact.body, exact.headers)).resolves.toMatchObject({ known: true });
    now = NOW_MS;
    for (const [timestamp, reason, skewSeconds] of [
      [NOW_S - 1, 'timestamp_too_old', -1],
      [NOW_S + 1, 'timestamp_too_new', 1],
    ] as const) {
      const off = await delivery(completedEvent, { timestamp });
      await expect(webhook.verify(off.body, off.headers)).rejects.toMatchObject({
        reason,
        skewSeconds,
        toleranceSeconds: 0,
        signatureMatched: true,
      });
    }
  });
});
