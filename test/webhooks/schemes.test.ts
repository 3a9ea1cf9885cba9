import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  resolveWebhookScheme,
  signWebhook,
  WEBHOOK_SCHEMES,
  WebhookReceiver,
  type WebhookSchemeDescription,
} from '../../src/webhooks/index.js';
import { BUILDS, completedEvent, NOW_MS, NOW_S, OTHER_SECRET } from './fixtures.js';
import { PRESET_SECRETS, PRESETS, REFERENCE_SIGNERS } from './reference-signers.js';

const body = JSON.stringify({ ...completedEvent, data: { ...completedEvent.data, note: 'Zoë 🚀 株式' } });
const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: { reason?: string }) => error.reason,
  );

describe.each(PRESETS)('scheme preset %s against its reference signer', (preset) => {
  const secret = PRESET_SECRETS[preset];
  const reference = REFERENCE_SIGNERS[preset]({ secret, id: 'msg_ref_1', timestamp: NOW_S, body });

  it('signs byte for byte what the reference signer does', async () => {
    expect(
      await signWebhook({ secret, id: 'msg_ref_1', timestamp: NOW_S, payload: body, scheme: preset }),
    ).toEqual(reference);
  });

  it.each(BUILDS)(
    'verifies what the reference signs and refuses a changed byte (%s)',
    async (_build, Webhook) => {
      const webhook = new Webhook({ secret, scheme: preset, now: () => NOW_MS });
      const event = await webhook.verify(body, reference);
      expect(event).toMatchObject({
        known: true,
        type: 'spv_request.completed',
        data: { note: 'Zoë 🚀 株式' },
      });
      expect(await reason(webhook.verify(body.replace('Zoë', 'Zoe'), reference))).toBe(
        'no_matching_signature',
      );
      expect(await reason(webhook.verify(new TextEncoder().encode(body), reference))).toBe('accepted');
    },
  );

  it.each(BUILDS)(
    'tries every secret during a rotation and says which matched (%s)',
    async (_build, Webhook) => {
      const newer = preset === 'standard-webhooks' ? OTHER_SECRET : `${secret}-rotated`;
      const webhook = new Webhook({ secrets: [newer, secret], scheme: preset, now: () => NOW_MS });
      await expect(webhook.verify(body, reference)).resolves.toMatchObject({ secretIndex: 1 });
      const fresh = REFERENCE_SIGNERS[preset]({ secret: newer, id: 'msg_ref_2', timestamp: NOW_S, body });
      await expect(webhook.verify(body, fresh)).resolves.toMatchObject({ secretIndex: 0 });
    },
  );
});

describe('known answers', () => {
  it('GitHub: the documented secret and payload give the documented signature', async () => {
    const headers = await signWebhook({
      secret: "It's a Secret to Everybody",
      payload: 'Hello, World!',
      scheme: 'github',
    });
    expect(headers['x-hub-signature-256']).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('Standard Webhooks: the reference vector through an explicit scheme object', async () => {
    const headers = await signWebhook({
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      payload: '{"test": 2432232314}',
      scheme: { ...WEBHOOK_SCHEMES['standard-webhooks'] },
    });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe.each(BUILDS)('scheme details — %s', (_build, Webhook) => {
  const stripeSecret = PRESET_SECRETS.stripe;
  const stripe = new Webhook({ secret: stripeSecret, scheme: 'stripe', now: () => NOW_MS });
  const signed = (timestamp = NOW_S) =>
    REFERENCE_SIGNERS.stripe({ secret: stripeSecret, id: '', timestamp, body })['stripe-signature']!;

  it('reads the timestamp inside the signature header, skips other versions, refuses two timestamps', async () => {
    const header = signed();
    const v0 = `v0=${'0'.repeat(64)}`;
    const withV0 = `${header},${v0}`;
    await expect(stripe.verify(body, { 'stripe-signature': withV0 })).resolves.toMatchObject({ known: true });
    const upper = header.replace(/v1=([0-9a-f]+)/, (_m, hex: string) => `v1=${hex.toUpperCase()}`);
    await expect(stripe.verify(body, { 'Stripe-Signature': upper })).resolves.toMatchObject({ known: true });
    expect(await reason(stripe.verify(body, { 'stripe-signature': header.replace(/^t=\d+,/, '') }))).toBe(
      'malformed_signature',
    );
    expect(await reason(stripe.verify(body, { 'stripe-signature': `t=${NOW_S},${header}` }))).toBe(
      'malformed_signature',
    );
    expect(await reason(stripe.verify(body, { 'stripe-signature': `t=${NOW_S},${v0}` }))).toBe(
      'malformed_signature',
    );
    expect(await reason(stripe.verify(body, { 'stripe-signature': header.replace('t=', 't=0') }))).toBe(
      'malformed_timestamp',
    );
  });

  it('applies the tolerance to a timestamp in the signature header', async () => {
    const old = signed(NOW_S - 301);
    const error = await stripe.verify(body, { 'stripe-signature': old }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'timestamp_too_old', signatureMatched: true, skewSeconds: -301 });
    await expect(stripe.verify(body, { 'stripe-signature': signed(NOW_S + 300) })).resolves.toBeDefined();
  });

  it('gives a scheme without an id header a body-derived id, the same on every re-signed retry', async () => {
    const first = await stripe.verifySignature(body, { 'stripe-signature': signed(NOW_S) });
    const retry = await stripe.verifySignature(body, { 'stripe-signature': signed(NOW_S + 30) });
    const hash = createHash('sha256').update(body).digest('hex');
    expect(first.webhookId).toBe(`sha256:${hash}`);
    expect(retry.webhookId).toBe(first.webhookId);
    expect(retry.timestamp).toBe(NOW_S + 30);
    let handled = 0;
    const receiver = new WebhookReceiver(stripe, { now: () => NOW_MS }).onAny(() => {
      handled += 1;
    });
    await receiver.receive(body, { 'stripe-signature': signed(NOW_S) });
    await expect(receiver.receive(body, { 'stripe-signature': signed(NOW_S + 30) })).resolves.toMatchObject({
      outcome: 'duplicate',
    });
    expect(handled).toBe(1);
  });

  it('signs no timestamp in body-only schemes, so any age verifies (replays are stopped by de-duplication only)', async () => {
    const github = new Webhook({ secret: PRESET_SECRETS.github, scheme: 'github', now: () => NOW_MS });
    const headers = REFERENCE_SIGNERS.github({
      secret: PRESET_SECRETS.github,
      id: 'gh-1',
      timestamp: 0,
      body,
    });
    const verified = await github.verifySignature(body, headers);
    const hash = createHash('sha256').update(body).digest('hex');
    expect(verified).toMatchObject({ webhookId: `sha256:${hash}`, timestamp: undefined });
  });

  it('takes a preset with overrides, header names in any case', async () => {
    const scheme: WebhookSchemeDescription = { preset: 'stripe', signatureHeader: 'X-PE-Signature' };
    const custom = new Webhook({ secret: stripeSecret, scheme, now: () => NOW_MS });
    expect(custom.scheme).toMatchObject({
      name: 'stripe',
      signatureHeader: 'x-pe-signature',
      signatureEncoding: 'hex',
    });
    await expect(custom.verify(body, { 'x-pe-signature': signed() })).resolves.toMatchObject({ known: true });
    expect(await reason(custom.verify(body, { 'stripe-signature': signed() }))).toBe('missing_header');
  });

  it('takes a full custom description: id, timestamp and signature headers, hex, base64 secret', async () => {
    const scheme = {
      name: 'partner-equity-v2',
      idHeader: 'x-pe-id',
      timestampHeader: 'x-pe-timestamp',
      timestampPrefix: null,
      signatureHeader: 'x-pe-signature',
      signaturePrefix: 'sha256=',
      signatureSeparator: ',',
      signatureEncoding: 'hex',
      signedContent: 'id.timestamp.body',
      secretEncoding: 'base64',
    } as const;
    const secret = Buffer.alloc(32, 7).toString('base64');
    const webhook = new Webhook({ secret, scheme, now: () => NOW_MS });
    const headers = await webhook.sign({ payload: body, id: 'evt_1' });
    const mac = createHmac('sha256', Buffer.alloc(32, 7)).update(`evt_1.${NOW_S}.${body}`).digest('hex');
    expect(headers).toEqual({
      'x-pe-id': 'evt_1',
      'x-pe-timestamp': String(NOW_S),
      'x-pe-signature': `sha256=${mac}`,
    });
    const twoSigned = { ...headers, 'x-pe-signature': `sha256=${'a'.repeat(64)}, sha256=${mac}` };
    await expect(webhook.verify(body, twoSigned)).resolves.toMatchObject({ webhookId: 'evt_1', known: true });
  });
});

describe('scheme validation', () => {
  it('names every bad field of a description in one error', () => {
    const bad = {
      signatureHeader: 'x sig',
      signatureEncoding: 'base32',
      signedContent: 'id.timestamp.body',
      secretEncoding: 'raw',
      signaturePrefix: 'v1,',
      signatureSeparator: ',',
      timestampPrefix: 't=',
      timestampHeader: 'x-ts',
      colour: 'blue',
    };
    let error: unknown;
    try {
      resolveWebhookScheme(bad as unknown as WebhookSchemeDescription);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ reason: 'invalid_scheme' });
    const message = (error as Error).message;
    for (const part of [
      "unknown field 'colour'",
      'signatureHeader must be an HTTP header name',
      "signatureEncoding must be one of 'base64', 'hex'",
      'signaturePrefix must not contain signatureSeparator',
      "signedContent '{id}.{timestamp}.{body}' needs exactly one of timestampHeader, timestampPrefix",
      "signedContent '{id}.{timestamp}.{body}' needs an idHeader",
    ]) {
      expect(message).toContain(part);
    }
  });

  it('refuses an unsigned timestamp, an unknown preset and a scheme that is not an object', () => {
    expect(() => resolveWebhookScheme({ preset: 'github', timestampHeader: 'x-ts' })).toThrow(
      /signedContent '\{body\}' signs no timestamp/,
    );
    expect(() => resolveWebhookScheme('stripey' as never)).toThrow(
      /unknown preset 'stripey' \(presets: standard-webhooks, stripe, github, shopify\)/,
    );
    expect(() => resolveWebhookScheme([] as never)).toThrow(/preset name .* or an object/);
    expect(resolveWebhookScheme('github')).toBe(WEBHOOK_SCHEMES.github);
    expect(resolveWebhookScheme(undefined)).toBe(WEBHOOK_SCHEMES['standard-webhooks']);
  });
});
