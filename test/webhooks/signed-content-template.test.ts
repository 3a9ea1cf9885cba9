// Issue 26: a scheme's signed content is a template. Each known answer below is computed by a signer written
// in this file from that family's public description (node:crypto only), never by the SDK's signer.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  resolveWebhookScheme,
  signWebhook,
  WEBHOOK_SCHEMES,
  type WebhookSchemeDescription,
} from '../../src/webhooks/index.js';
import { BUILDS, VECTOR } from './fixtures.js';

const hmac = (key: Buffer | string, content: string) => createHmac('sha256', key).update(content, 'utf8');

// standardwebhooks.com: key = base64 after "whsec_"; HMAC-SHA256 of "{id}.{timestamp}.{body}", "v1,<base64>".
const standardSignature = (secret: string, id: string, timestamp: number, body: string) =>
  `v1,${hmac(Buffer.from(secret.slice('whsec_'.length), 'base64'), `${id}.${timestamp}.${body}`).digest('base64')}`;
// Stripe: key = the secret string; HMAC-SHA256 of "{t}.{body}"; "Stripe-Signature: t=<t>,v1=<hex>".
const stripeSignature = (secret: string, timestamp: number, body: string) =>
  `t=${timestamp},v1=${hmac(secret, `${timestamp}.${body}`).digest('hex')}`;
// Slack ("Verifying requests from Slack"): "v0=" + hex HMAC-SHA256 of "v0:{timestamp}:{body}", raw secret.
const slackSignature = (secret: string, timestamp: number, body: string) =>
  `v0=${hmac(secret, `v0:${timestamp}:${body}`).digest('hex')}`;

/** Slack's published example request. */
const SLACK = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: 1531420618,
  body:
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar' +
    '&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com' +
    '%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};
const slackScheme: WebhookSchemeDescription = {
  name: 'slack',
  idHeader: null,
  timestampHeader: 'x-slack-request-timestamp',
  timestampPrefix: null,
  signatureHeader: 'x-slack-signature',
  signaturePrefix: 'v0=',
  signatureSeparator: null,
  signatureEncoding: 'hex',
  signedContent: 'v0:{timestamp}:{body}',
  secretEncoding: 'raw',
};

/** Stripe has no published vector: this pins the independent signer's bytes for fixed inputs. */
const STRIPE = {
  secret: 'whsec_stripe_style_raw_secret_0123',
  timestamp: 1750000000,
  body: '{"id":"evt_1"}',
  signature: 't=1750000000,v1=3c33ae73fd0037e70166280a51a4cc4f86872083e2e61b4b7d406b490e418624',
};

describe('signed-content templates: known answers from each family', () => {
  it("Standard Webhooks '{id}.{timestamp}.{body}' gives the published g0hM9SsE… vector", async () => {
    const { secret, id, timestamp, payload } = VECTOR;
    expect(standardSignature(secret, id, timestamp, payload)).toBe(VECTOR.signature);
    expect(WEBHOOK_SCHEMES['standard-webhooks'].signedContent).toBe('{id}.{timestamp}.{body}');
    const headers = await signWebhook({ secret, id, timestamp, payload, scheme: 'standard-webhooks' });
    expect(headers['webhook-signature']).toBe(VECTOR.signature);
    for (const [, Webhook] of BUILDS) {
      const webhook = new Webhook({ secret, now: () => timestamp * 1000 });
      await expect(webhook.verifySignature(payload, headers)).resolves.toMatchObject({ webhookId: id });
    }
  });

  it("Stripe 't=…,v1=…' over '{timestamp}.{body}'", async () => {
    const { secret, timestamp, body } = STRIPE;
    expect(stripeSignature(secret, timestamp, body)).toBe(STRIPE.signature);
    expect(WEBHOOK_SCHEMES.stripe.signedContent).toBe('{timestamp}.{body}');
    const headers = await signWebhook({ secret, timestamp, payload: body, scheme: 'stripe' });
    expect(headers).toEqual({ 'stripe-signature': STRIPE.signature });
    for (const [, Webhook] of BUILDS) {
      const webhook = new Webhook({ secret, scheme: 'stripe', now: () => timestamp * 1000 });
      await expect(webhook.verifySignature(body, headers)).resolves.toMatchObject({ timestamp });
    }
  });

  it("Slack 'v0:{timestamp}:{body}' gives Slack's published example signature", async () => {
    const { secret, timestamp, body } = SLACK;
    expect(slackSignature(secret, timestamp, body)).toBe(SLACK.signature);
    const headers = await signWebhook({ secret, timestamp, payload: body, scheme: slackScheme });
    expect(headers).toEqual({
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': SLACK.signature,
    });
    for (const [, Webhook] of BUILDS) {
      const webhook = new Webhook({ secret, scheme: slackScheme, now: () => timestamp * 1000 });
      await expect(webhook.verifySignature(body, headers)).resolves.toMatchObject({ timestamp });
      const later = { ...headers, 'x-slack-request-timestamp': String(timestamp + 1) };
      await expect(webhook.verifySignature(body, later)).rejects.toMatchObject({
        reason: 'no_matching_signature',
      });
    }
  });
});

describe.each(BUILDS)('signed-content templates — %s', (_build, Webhook) => {
  const secret = 'a-raw-secret-of-32-characters-00';
  const scheme: WebhookSchemeDescription = {
    ...slackScheme,
    name: 'body-in-the-middle',
    idHeader: 'x-id',
    signedContent: '{timestamp}|{body}|{id}',
  };

  it('signs the body wherever the template puts it, with the id after it', async () => {
    const webhook = new Webhook({ secret, scheme, now: () => 1_750_000_000_000 });
    const body = '{"note":"Zoë 🚀"}';
    const headers = await webhook.sign({ payload: body, id: 'evt_9' });
    const mac = hmac(secret, `1750000000|${body}|evt_9`).digest('hex');
    expect(headers['x-slack-signature']).toBe(`v0=${mac}`);
    await expect(webhook.verifySignature(new TextEncoder().encode(body), headers)).resolves.toMatchObject({
      webhookId: 'evt_9',
    });
    await expect(webhook.verifySignature(body, { ...headers, 'x-id': 'evt_8' })).rejects.toMatchObject({
      reason: 'no_matching_signature',
    });
  });
});

describe('signed-content template checks', () => {
  const refusal = (signedContent: string) => () =>
    resolveWebhookScheme({ ...slackScheme, signedContent } as WebhookSchemeDescription);

  it('refuses a template that names no {body}, naming the option', () => {
    expect(refusal('v0:{timestamp}')).toThrow(
      /signedContent 'v0:\{timestamp\}' names no \{body\}: the raw body must be signed/,
    );
    expect(refusal('{body}.{body}')).toThrow(/names \{body\} more than once/);
  });

  it('refuses unknown placeholders and stray braces', () => {
    expect(refusal('{ts}.{body}')).toThrow(
      /signedContent '\{ts\}\.\{body\}' has unknown placeholder '\{ts\}' \(known: \{id\}, \{timestamp\}, \{body\}\)/,
    );
    expect(refusal('{{timestamp}}.{body}')).toThrow(/has a '\{' or '\}' outside a placeholder/);
    expect(refusal('{timestamp}.{body}}')).toThrow(
      "signedContent '{timestamp}.{body}}' has a '{' or '}' outside a placeholder",
    );
    expect(refusal('{timestamp}\n{body}')).toThrow(/signedContent must be 1-128 printable ASCII characters/);
  });

  it('shows a long template and a long placeholder cut short in the message', () => {
    const name = `{${'x'.repeat(70)}}`;
    expect(refusal(`${name}.{body}`)).toThrow(
      `signedContent '${`${name}.{body}`.slice(0, 60)}' has unknown placeholder '${name.slice(0, 40)}' ` +
        '(known: {id}, {timestamp}, {body})',
    );
  });

  it('refuses a signedContent that is not a string, even one that reads as a deprecated name', () => {
    for (const signedContent of [42, ['body'], ['timestamp.body']]) {
      expect(() =>
        resolveWebhookScheme({ preset: 'github', signedContent } as unknown as WebhookSchemeDescription),
      ).toThrow(
        "Invalid webhook scheme: signedContent must be a template string, e.g. '{id}.{timestamp}.{body}' or " +
          "'v0:{timestamp}:{body}'.",
      );
    }
  });

  it('refuses {id} or {body} right next to another placeholder: the boundary could move (issue 36, finding 8)', () => {
    for (const template of ['{id}{body}', '{body}{id}', '{timestamp}{body}', 'v0:{id}{timestamp}.{body}']) {
      expect(refusal(template), template).toThrow(
        /puts \{\w+\} right next to \{\w+\}: separate them with a literal/,
      );
    }
    expect(() => resolveWebhookScheme({ preset: 'standard-webhooks', signedContent: '{id}{body}' })).toThrow(
      /signedContent '\{id\}\{body\}' puts \{id\} right next to \{body\}/,
    );
    for (const template of [
      '{id}.{timestamp}.{body}',
      '{timestamp}.{id}|{body}',
      'v1:{body}:{id}:{timestamp}',
      // Only {id} and {body} hold text of any length: the same timestamp twice cannot shift a boundary.
      '{timestamp}{timestamp}.{body}',
    ] as const) {
      expect(() =>
        resolveWebhookScheme({ preset: 'standard-webhooks', signedContent: template }),
      ).not.toThrow();
    }
  });

  it('still takes the deprecated names, as the templates they stand for', () => {
    const names = {
      body: '{body}',
      'timestamp.body': '{timestamp}.{body}',
      'id.timestamp.body': '{id}.{timestamp}.{body}',
    } as const;
    const presets = {
      body: 'github',
      'timestamp.body': 'stripe',
      'id.timestamp.body': 'standard-webhooks',
    } as const;
    for (const [name, template] of Object.entries(names) as [keyof typeof names, string][]) {
      const scheme = resolveWebhookScheme({ preset: presets[name], signedContent: name });
      expect(scheme.signedContent).toBe(template);
    }
  });
});
