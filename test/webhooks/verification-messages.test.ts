// Issue 27 (test strength): what a partner reads when a delivery is refused, and the signature comparison
// at its edges (a signature with bytes added or cut, bodies that are not UTF-8).
import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../../src/webhooks/constant-time-equal.js';
import { signWebhook } from '../../src/webhooks/index.js';
import type { WebhookVerificationError } from '../../src/webhooks/webhook-verification-error.js';
import { BUILDS, delivery, NOW_MS, NOW_S, OTHER_SECRET, SECRET } from './fixtures.js';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error as WebhookVerificationError,
  );

describe('constantTimeEqual', () => {
  it('is true only for the same string: a prefix, an extension or one changed character is false', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('abcd', 'abc')).toBe(false);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', '')).toBe(false);
  });
});

describe.each(BUILDS)('Webhook refusals — %s', (_build, Webhook) => {
  const webhook = new Webhook({ secret: SECRET, now: () => NOW_MS });

  it('refuses a signature with characters added to or cut from a valid one', async () => {
    const { body, headers } = await delivery();
    const valid = headers['webhook-signature'] as string;
    for (const changed of [`${valid}AAAA`, `${valid}=`, valid.slice(0, -4), valid.slice(0, 10)]) {
      const error = await refusal(webhook.verify(body, { ...headers, 'webhook-signature': changed }));
      expect(error.reason).toMatch(/no_matching_signature|malformed_signature/);
    }
    await expect(webhook.verify(body, headers)).resolves.toMatchObject({ known: true });
  });

  it('says a forged delivery matched no secret, and whether its timestamp was also out of the window', async () => {
    for (const [timestamp, message] of [
      [NOW_S, 'No webhook signature matches the configured secret(s).'],
      [
        NOW_S - 400,
        'No webhook signature matches the configured secret(s) (its timestamp is also 400 s old).',
      ],
      [
        NOW_S + 400,
        'No webhook signature matches the configured secret(s) (its timestamp is also 400 s ahead).',
      ],
    ] as const) {
      const forged = await delivery(undefined, { secret: OTHER_SECRET, timestamp });
      const error = await refusal(webhook.verify(forged.body, forged.headers));
      expect(error).toMatchObject({ reason: 'no_matching_signature', message });
    }
  });

  it('says how old or how far ahead an authentic stale delivery is', async () => {
    const old = await delivery(undefined, { timestamp: NOW_S - 400 });
    const tooOld = await refusal(webhook.verify(old.body, old.headers));
    expect(tooOld.reason).toBe('timestamp_too_old');
    expect(tooOld.message).toMatch(
      /^Webhook timestamp is 400 s old, beyond the 300 s tolerance; its signature is valid, so the sender signed it 400 s ago\. \S/,
    );
    const ahead = await delivery(undefined, { timestamp: NOW_S + 400 });
    const tooNew = await refusal(webhook.verify(ahead.body, ahead.headers));
    expect(tooNew).toMatchObject({
      reason: 'timestamp_too_new',
      message:
        "Webhook timestamp is 400 s ahead, beyond the 300 s tolerance; its signature is valid: check this server's clock (or the sender's).",
      skewSeconds: 400,
    });
  });

  it('names what it got instead of a raw body', async () => {
    const { headers } = await delivery();
    for (const [body, got] of [
      [{ type: 'x' }, 'an object (Object)'],
      [Object.create(null), 'an object (Object)'],
      [new Map(), 'an object (Map)'],
      [null, 'null'],
      [42, 'number'],
      [undefined, 'undefined'],
    ] as const) {
      const error = await refusal(webhook.verify(body as never, headers));
      expect(error.reason).toBe('body_not_raw');
      expect(error.message).toBe(
        `Webhook body must be the raw request body (string, Uint8Array or ArrayBuffer), got ${got}. ` +
          'A body-parsing middleware (express.json(), bodyParser.json(), a framework that parses JSON) probably ' +
          'ran first: give this route the raw body, e.g. express.raw({ type: "application/json" }), or use ' +
          'createNodeHandler / createFetchHandler, which read it themselves.',
      );
    }
  });

  it('refuses a tolerance that is not a non-negative whole number of seconds, when built', () => {
    for (const toleranceSeconds of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new Webhook({ secret: SECRET, toleranceSeconds })).toThrow(
        new RangeError('toleranceSeconds must be a non-negative integer number of seconds.'),
      );
    }
    expect(new Webhook({ secret: SECRET }).toleranceSeconds).toBe(300);
  });

  it('delivers an authentic body that is not UTF-8 as unrecognised, without decoding it loosely', async () => {
    // Valid JSON around a lone 0xff byte: a lenient decoder would turn it into U+FFFD and parse it.
    const bytes = new Uint8Array([
      ...Buffer.from('{"type":"spv_request.created","data":{"x":"'),
      0xff,
      ...Buffer.from('"}}'),
    ]);
    const headers = await signWebhook({ secret: SECRET, id: 'msg_bytes', timestamp: NOW_S, payload: bytes });
    const event = await webhook.verify(bytes, { ...headers });
    expect(event).toMatchObject({ known: false, webhookId: 'msg_bytes' });
    expect(event).not.toHaveProperty('type', 'spv_request.created');
    const raw = await webhook.verifySignature(bytes, { ...headers });
    expect(raw.body).toEqual(bytes);
    expect(raw.text).toBeUndefined();
  });
});
