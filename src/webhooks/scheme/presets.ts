import type { WebhookScheme, WebhookSchemePreset } from './webhook-scheme.js';

/**
 * The built-in schemes. Standard Webhooks is the default (the spec shows no scheme; this is the SDK's
 * guess); the others are the HMAC-SHA256 layouts most services use, to follow the real service if it
 * signs another way. Spread one and override fields for a variant.
 *
 * | Preset | Headers | Signed content | Signature | Secret |
 * |---|---|---|---|---|
 * | `standard-webhooks` | `webhook-id`, `webhook-timestamp`, `webhook-signature` | `{id}.{timestamp}.{body}` | `v1,<base64>`, space separated | `whsec_<base64>` |
 * | `stripe` | `stripe-signature: t=<s>,v1=<hex>` | `{timestamp}.{body}` | `v1=<hex>`, comma separated | raw string |
 * | `github` | `x-github-delivery`, `x-hub-signature-256` | `{body}` | `sha256=<hex>` | raw string |
 * | `shopify` | `x-shopify-webhook-id`, `x-shopify-hmac-sha256` | `{body}` | `<base64>` | raw string |
 *
 * Schemes that sign only the body (`github`, `shopify`) carry no signed timestamp, so a captured delivery
 * verifies forever; only de-duplication stops a replay of it.
 *
 * @example
 * ```ts
 * const webhook = new Webhook({ secret, scheme: { ...WEBHOOK_SCHEMES.github, signatureHeader: 'x-pe-signature' } });
 * ```
 */
export const WEBHOOK_SCHEMES: Readonly<Record<WebhookSchemePreset, WebhookScheme>> = Object.freeze({
  'standard-webhooks': Object.freeze({
    name: 'standard-webhooks',
    idHeader: 'webhook-id',
    timestampHeader: 'webhook-timestamp',
    timestampPrefix: null,
    signatureHeader: 'webhook-signature',
    signaturePrefix: 'v1,',
    signatureSeparator: ' ',
    signatureEncoding: 'base64',
    signedContent: '{id}.{timestamp}.{body}',
    secretEncoding: 'whsec',
  }),
  stripe: Object.freeze({
    name: 'stripe',
    idHeader: null,
    timestampHeader: null,
    timestampPrefix: 't=',
    signatureHeader: 'stripe-signature',
    signaturePrefix: 'v1=',
    signatureSeparator: ',',
    signatureEncoding: 'hex',
    signedContent: '{timestamp}.{body}',
    secretEncoding: 'raw',
  }),
  github: Object.freeze({
    name: 'github',
    idHeader: 'x-github-delivery',
    timestampHeader: null,
    timestampPrefix: null,
    signatureHeader: 'x-hub-signature-256',
    signaturePrefix: 'sha256=',
    signatureSeparator: null,
    signatureEncoding: 'hex',
    signedContent: '{body}',
    secretEncoding: 'raw',
  }),
  shopify: Object.freeze({
    name: 'shopify',
    idHeader: 'x-shopify-webhook-id',
    timestampHeader: null,
    timestampPrefix: null,
    signatureHeader: 'x-shopify-hmac-sha256',
    signaturePrefix: '',
    signatureSeparator: null,
    signatureEncoding: 'base64',
    signedContent: '{body}',
    secretEncoding: 'raw',
  }),
});

/** The scheme used when none is given. */
export const DEFAULT_WEBHOOK_SCHEME: WebhookScheme = WEBHOOK_SCHEMES['standard-webhooks'];
