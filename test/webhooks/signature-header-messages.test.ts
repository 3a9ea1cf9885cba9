// What a partner reads when a delivery's signature header is refused before any HMAC work: each message
// names the header, what one entry should look like in that scheme, and what the header held instead.
import { describe, expect, it } from 'vitest';
import { type WebhookSchemePreset, WebhookVerificationError } from '../../src/webhooks/index.js';
import { BUILDS, completedEvent, delivery, NOW_MS, NOW_S, SECRET } from './fixtures.js';
import { PRESET_SECRETS, REFERENCE_SIGNERS } from './reference-signers.js';

const body = JSON.stringify(completedEvent);
const HEX = 'ab'.repeat(32);
const BASE64 = `${'A'.repeat(43)}=`;

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe.each(BUILDS)('signature header refusals — %s', (_build, Webhook) => {
  const webhookFor = (scheme: WebhookSchemePreset) =>
    new Webhook({ secret: PRESET_SECRETS[scheme], scheme, now: () => NOW_MS });
  const signed = (scheme: WebhookSchemePreset) =>
    REFERENCE_SIGNERS[scheme]({ secret: PRESET_SECRETS[scheme], id: 'msg_sig', timestamp: NOW_S, body });

  it('says what one entry looks like in each preset, and that the only entry is not of that form', async () => {
    const cases = [
      ['standard-webhooks', 'webhook-signature', 'v1,short=', '"v1," followed by 44 base64 characters'],
      ['stripe', 'stripe-signature', `t=${NOW_S}`, '"v1=" followed by 64 hex digits'],
      ['github', 'x-hub-signature-256', 'sha256=abc', '"sha256=" followed by 64 hex digits'],
      ['shopify', 'x-shopify-hmac-sha256', 'c2hvcnQ=', '44 base64 characters'],
    ] as const;
    for (const [scheme, header, value, entry] of cases) {
      const error = await refusal(webhookFor(scheme).verify(body, { ...signed(scheme), [header]: value }));
      expect(error).toMatchObject({
        reason: 'malformed_signature',
        message: `Header ${header} has no well-formed signature: expected ${entry}; its one entry is not of that form.`,
      });
    }
  });

  it('counts the entries a header held when none is well-formed, and says when it held none at all', async () => {
    const standard = webhookFor('standard-webhooks');
    const headers = signed('standard-webhooks');
    const many = await refusal(
      standard.verify(body, { ...headers, 'webhook-signature': `v0,${BASE64} v2,${BASE64} v1,${HEX}` }),
    );
    expect(many.message).toBe(
      'Header webhook-signature has no well-formed signature: expected "v1," followed by 44 base64 characters; ' +
        'none of its 3 entries is of that form.',
    );
    // A comma-separated header of empty entries: present, yet nothing in it.
    const empty = await refusal(webhookFor('stripe').verify(body, { 'stripe-signature': ', ,' }));
    expect(empty).toMatchObject({
      reason: 'malformed_signature',
      message:
        'Header stripe-signature has no well-formed signature: expected "v1=" followed by 64 hex digits; it is empty.',
    });
  });

  it('refuses more than 16 signatures, counting the entries the header holds (blank ones aside)', async () => {
    const standard = webhookFor('standard-webhooks');
    const headers = signed('standard-webhooks');
    const valid = headers['webhook-signature']!;
    const seventeen = [...Array.from({ length: 16 }, () => `v1,${BASE64}`), valid].join(' ');
    const error = await refusal(standard.verify(body, { ...headers, 'webhook-signature': seventeen }));
    expect(error).toMatchObject({
      reason: 'malformed_signature',
      message: 'Header webhook-signature has 17 entries; at most 16 signatures are accepted.',
    });
    await expect(
      standard.verify(body, { ...headers, 'webhook-signature': seventeen.slice(seventeen.indexOf(' ') + 1) }),
    ).resolves.toMatchObject({ webhookId: 'msg_sig' });

    // Stripe: the timestamp entry comes on top of the 16, and empty or blank list items are no entries.
    const stripeHeader = signed('stripe')['stripe-signature']!;
    const items = [stripeHeader, ...Array.from({ length: 19 }, () => `v1=${HEX}`)];
    const tooMany = await refusal(
      webhookFor('stripe').verify(body, { 'stripe-signature': `${items.join(', ,')},,` }),
    );
    expect(tooMany.message).toBe(
      'Header stripe-signature has 21 entries; at most 16 signatures are accepted.',
    );
    const seventeenSigned = [stripeHeader, ...Array.from({ length: 15 }, () => `v1=${HEX}`)].join(', ,');
    await expect(
      webhookFor('stripe').verify(body, { 'stripe-signature': seventeenSigned }),
    ).resolves.toMatchObject({ known: true });
  });

  it('reads a header of up to 2048 characters; refuses a longer one and a second timestamp entry', async () => {
    const headers = signed('standard-webhooks');
    const valid = headers['webhook-signature']!;
    const padded = (length: number) => `${valid} v2,${'x'.repeat(length - valid.length - 4)}`;
    const standard = webhookFor('standard-webhooks');
    expect(padded(2048)).toHaveLength(2048);
    await expect(
      standard.verify(body, { ...headers, 'webhook-signature': padded(2048) }),
    ).resolves.toMatchObject({
      webhookId: 'msg_sig',
    });
    const error = await refusal(standard.verify(body, { ...headers, 'webhook-signature': padded(2049) }));
    expect(error).toMatchObject({
      reason: 'malformed_signature',
      message: 'Header webhook-signature is longer than allowed.',
    });
    const twice = await refusal(
      webhookFor('stripe').verify(body, {
        'stripe-signature': `t=${NOW_S},${signed('stripe')['stripe-signature']}`,
      }),
    );
    expect(twice).toMatchObject({
      reason: 'malformed_signature',
      message: 'Header stripe-signature has more than one timestamp entry.',
    });
  });

  it('skips entries it does not know, whatever they hold, in a scheme without a timestamp entry', async () => {
    const { body: text, headers } = await delivery();
    const webhook = new Webhook({ secret: SECRET, now: () => NOW_MS });
    for (const other of ['v2,abc', `t=${NOW_S}`, 'null', 'nullnull', `sha256=${HEX}`]) {
      const signature = `${other} ${other} ${headers['webhook-signature']}`;
      await expect(
        webhook.verify(text, { ...headers, 'webhook-signature': signature }),
        other,
      ).resolves.toMatchObject({ webhookId: 'msg_1' });
    }
  });
});
