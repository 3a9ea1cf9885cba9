import type { HmacEngine } from './hmac-engine.js';
import { resolveWebhookScheme } from './scheme/resolve-webhook-scheme.js';
import { compileSignedContent } from './scheme/signed-content-template.js';
import type { WebhookScheme, WebhookSchemeInput } from './scheme/webhook-scheme.js';
import { decodeSecret } from './secret.js';
import { formatSignatureHeader } from './signature-header.js';
import { asRawBody, type RawBody, WEBHOOK_ID } from './signed-content.js';
import { webCryptoEngine } from './web-crypto-engine.js';

/** What {@link signWebhook} signs. */
export interface SignWebhookInput {
  /** The secret shared with the receiver, in the scheme's encoding (`whsec_<base64>` by default). */
  secret: string;
  /** The exact body bytes that will be sent. Serialise JSON yourself so the bytes signed are the bytes sent. */
  payload: RawBody;
  /** Unique message id, sent in the scheme's id header; receivers de-duplicate on it. @default `msg_<random>` */
  id?: string | undefined;
  /** Send time in integer Unix seconds (a `Date` is floored to seconds). @default now */
  timestamp?: number | Date | undefined;
  /** @default 'standard-webhooks' */
  scheme?: WebhookSchemeInput | undefined;
}

/** The three Standard Webhooks headers, ready to send (a type alias, so it is usable as a header record). */
export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** The headers a scheme sends with a body: its id, timestamp and signature headers, lower-case names. */
export type SignedWebhookHeaders = Record<string, string>;

/** A new message id: `msg_` and 32 random hex digits. */
export function newMessageId(): string {
  return `msg_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** Checks id and timestamp as every sender must send them, and returns the timestamp's text. */
export function checkSignInput(id: string, timestamp: number | Date): string {
  if (typeof id !== 'string' || !WEBHOOK_ID.test(id)) {
    throw new TypeError('Webhook id must be 1-256 visible ASCII characters without spaces.');
  }
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : timestamp;
  if (!Number.isSafeInteger(seconds) || seconds <= 0 || seconds >= 1e10) {
    throw new TypeError('Webhook timestamp must be positive integer Unix seconds (not milliseconds).');
  }
  return String(seconds);
}

/** The headers `scheme` sends for `body`, signed with an imported `key`. */
export async function signedHeaders<Key>(
  engine: HmacEngine<Key>,
  key: Key,
  scheme: WebhookScheme,
  input: { id: string; timestamp: string; body: RawBody },
): Promise<SignedWebhookHeaders> {
  const body = asRawBody(input.body);
  if (body === undefined) {
    throw new TypeError('Webhook payload must be the raw body: a string, Uint8Array or ArrayBuffer.');
  }
  const { prefix, suffix } = compileSignedContent(scheme.signedContent)(input.id, input.timestamp);
  const digest = await engine.sign(key, prefix, body, suffix, scheme.signatureEncoding);
  const headers: SignedWebhookHeaders = {};
  if (scheme.idHeader !== null) headers[scheme.idHeader] = input.id;
  if (scheme.timestampHeader !== null) headers[scheme.timestampHeader] = input.timestamp;
  headers[scheme.signatureHeader] = formatSignatureHeader(scheme, input.timestamp, digest);
  return headers;
}

/**
 * Signs a webhook as the service would: by default the Standard Webhooks way (HMAC-SHA256 with the decoded
 * secret over `${id}.${timestamp}.${payload}`, sent as `webhook-signature: v1,<base64>`), or in any other
 * `scheme`. Uses Web Crypto, so it runs on every runtime. The fake API's sender, the CLI and `Webhook#sign`
 * sign through the same code.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ type: 'spv_request.created', timestamp: new Date().toISOString(), data });
 * const headers = await signWebhook({ secret, id: 'msg_1', timestamp: Math.floor(Date.now() / 1000), payload: body });
 * await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 * ```
 */
export async function signWebhook(
  input: SignWebhookInput & { scheme?: 'standard-webhooks' | undefined },
): Promise<WebhookSignatureHeaders>;
export async function signWebhook(input: SignWebhookInput): Promise<SignedWebhookHeaders>;
export async function signWebhook(input: SignWebhookInput): Promise<SignedWebhookHeaders> {
  const scheme = resolveWebhookScheme(input.scheme);
  const keyBytes = decodeSecret(input.secret, scheme.secretEncoding);
  const id = input.id ?? newMessageId();
  const timestamp = checkSignInput(id, input.timestamp ?? Math.floor(Date.now() / 1000));
  const key = await webCryptoEngine.importKey(keyBytes);
  return signedHeaders(webCryptoEngine, key, scheme, { id, timestamp, body: input.payload });
}
