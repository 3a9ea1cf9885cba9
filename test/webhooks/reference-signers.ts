// Reference signers, one per preset, written from each scheme's own published description with node:crypto
// only — no SDK code — so the SDK's generic scheme engine is checked against something independent.
import { createHmac } from 'node:crypto';
import type { WebhookSchemePreset } from '../../src/webhooks/index.js';

export interface ReferenceDelivery {
  secret: string;
  id: string;
  timestamp: number;
  body: string;
}

type Signer = (d: ReferenceDelivery) => Record<string, string>;

const hmac = (key: Buffer | string, content: string) => createHmac('sha256', key).update(content, 'utf8');

/** Each preset's headers, as its documentation says the sender computes them. */
export const REFERENCE_SIGNERS: Record<WebhookSchemePreset, Signer> = {
  // standardwebhooks.com: key = base64 after "whsec_"; sign "{id}.{timestamp}.{body}"; "v1,<base64>".
  'standard-webhooks': ({ secret, id, timestamp, body }) => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${hmac(Buffer.from(secret.slice(6), 'base64'), `${id}.${timestamp}.${body}`).digest('base64')}`,
  }),
  // Stripe: key = the secret string; sign "{t}.{body}"; "Stripe-Signature: t=<t>,v1=<hex>".
  stripe: ({ secret, timestamp, body }) => ({
    'stripe-signature': `t=${timestamp},v1=${hmac(secret, `${timestamp}.${body}`).digest('hex')}`,
  }),
  // GitHub: key = the secret string; sign the body; "X-Hub-Signature-256: sha256=<hex>"; id in X-GitHub-Delivery.
  github: ({ secret, id, body }) => ({
    'x-github-delivery': id,
    'x-hub-signature-256': `sha256=${hmac(secret, body).digest('hex')}`,
  }),
  // Shopify: key = the secret string; sign the body; "X-Shopify-Hmac-Sha256: <base64>"; id in X-Shopify-Webhook-Id.
  shopify: ({ secret, id, body }) => ({
    'x-shopify-webhook-id': id,
    'x-shopify-hmac-sha256': hmac(secret, body).digest('base64'),
  }),
};

/** A usable secret per preset: the Standard Webhooks vector's, or a 32-character raw string. */
export const PRESET_SECRETS: Record<WebhookSchemePreset, string> = {
  'standard-webhooks': 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  stripe: 'whsec_stripe_style_raw_secret_0123',
  github: 'github-raw-secret-0123456789abcdef',
  shopify: 'shpss_0123456789abcdef0123456789ab',
};

export const PRESETS = Object.keys(REFERENCE_SIGNERS) as WebhookSchemePreset[];
