/**
 * What the HMAC covers, as a template: literal text with `{id}`, `{timestamp}` and exactly one `{body}` (the
 * raw body's bytes), in any order and with any separators. Standard Webhooks signs
 * `'{id}.{timestamp}.{body}'`, Stripe `'{timestamp}.{body}'`, Slack and Zoom `'v0:{timestamp}:{body}'`.
 */
export type WebhookSignedContent = `${string}{body}${string}`;

/** How the 32-byte HMAC-SHA256 is written in the signature header. */
export type WebhookSignatureEncoding = 'base64' | 'hex';

/**
 * How the configured secret string becomes HMAC key bytes:
 * - `whsec` — `whsec_` followed by standard base64 (Standard Webhooks); at least 24 bytes once decoded.
 * - `base64` — standard base64 without a prefix; at least 24 bytes once decoded.
 * - `raw` — the string's own UTF-8 bytes, used as given (GitHub, Shopify, Stripe); at least 16 bytes.
 */
export type WebhookSecretEncoding = 'whsec' | 'base64' | 'raw';

/** Names of the built-in schemes; see {@link WEBHOOK_SCHEMES}. */
export type WebhookSchemePreset = 'standard-webhooks' | 'stripe' | 'github' | 'shopify';

/**
 * A complete HMAC-SHA256 signing scheme: every field set. The presets in {@link WEBHOOK_SCHEMES} are of this
 * type; {@link resolveWebhookScheme} builds one from a preset name or a {@link WebhookSchemeDescription}.
 */
export interface WebhookScheme {
  /** Shown in messages, e.g. `standard-webhooks` or `custom`. */
  readonly name: string;
  /** Header carrying the message id (the same on every retry); `null` when the sender sends none. */
  readonly idHeader: string | null;
  /** Header carrying the timestamp (integer Unix seconds); `null` when it is absent or in the signature header. */
  readonly timestampHeader: string | null;
  /** The timestamp is the signature-header entry starting with this (`t=`); `null` when it is not there. */
  readonly timestampPrefix: string | null;
  /** Header carrying the signature(s). */
  readonly signatureHeader: string;
  /** Text before the digest in each signature entry: `v1,`, `v1=`, `sha256=` or `''`. */
  readonly signaturePrefix: string;
  /** Between entries of the signature header (`' '` or `','`); `null` when it holds one signature. */
  readonly signatureSeparator: string | null;
  readonly signatureEncoding: WebhookSignatureEncoding;
  /** The signed-content template, e.g. `'{id}.{timestamp}.{body}'`. */
  readonly signedContent: WebhookSignedContent;
  readonly secretEncoding: WebhookSecretEncoding;
}

/**
 * A scheme described declaratively (a plain object, so it can come from JSON): start from `preset` and
 * override any field, or give every field. Header names are matched case-insensitively.
 *
 * @example
 * ```ts
 * // The service signs `${timestamp}.${body}` into `X-PE-Signature: t=<seconds>,v1=<hex>` with a raw secret:
 * const scheme: WebhookSchemeDescription = { preset: 'stripe', signatureHeader: 'x-pe-signature' };
 * const webhook = new Webhook({ secret, scheme });
 * ```
 */
export interface WebhookSchemeDescription {
  /** Start from this preset. @default none: every field below must be given */
  preset?: WebhookSchemePreset | undefined;
  name?: string | undefined;
  idHeader?: string | null | undefined;
  timestampHeader?: string | null | undefined;
  timestampPrefix?: string | null | undefined;
  signatureHeader?: string | undefined;
  signaturePrefix?: string | undefined;
  signatureSeparator?: string | null | undefined;
  signatureEncoding?: WebhookSignatureEncoding | undefined;
  /**
   * A template such as `'v0:{timestamp}:{body}'`. The former names `'id.timestamp.body'`,
   * `'timestamp.body'` and `'body'` still work but are deprecated: they stand for the templates
   * `'{id}.{timestamp}.{body}'`, `'{timestamp}.{body}'` and `'{body}'`.
   */
  signedContent?: WebhookSignedContent | 'id.timestamp.body' | 'timestamp.body' | 'body' | undefined;
  secretEncoding?: WebhookSecretEncoding | undefined;
}

/** What the `scheme` option of `Webhook`, `signWebhook`, the fake and the CLI accepts. */
export type WebhookSchemeInput = WebhookSchemePreset | WebhookSchemeDescription;

/** The fields of a scheme, in the order messages and `--help` list them. */
export const SCHEME_FIELDS = [
  'name',
  'idHeader',
  'timestampHeader',
  'timestampPrefix',
  'signatureHeader',
  'signaturePrefix',
  'signatureSeparator',
  'signatureEncoding',
  'signedContent',
  'secretEncoding',
] as const satisfies readonly (keyof WebhookScheme)[];

/** Signature-header separators: characters outside both digest alphabets and every prefix. */
export const SIGNATURE_SEPARATORS = [' ', ','] as const;
