import { decodeSecret } from './secret.js';
import { asRawBody, type RawBody, WEBHOOK_ID } from './signed-content.js';
import { webCryptoEngine } from './web-crypto-engine.js';

/** What {@link signWebhook} signs. */
export interface SignWebhookInput {
  /** `whsec_<base64>` secret shared with the receiver. */
  secret: string;
  /** Unique message id, sent as `webhook-id`; receivers de-duplicate on it. */
  id: string;
  /** Send time in integer Unix seconds (a `Date` is floored to seconds). */
  timestamp: number | Date;
  /** The exact body bytes that will be sent. Serialise JSON yourself so the bytes signed are the bytes sent. */
  payload: RawBody;
}

/** The three Standard Webhooks headers, ready to send (a type alias, so it is usable as a header record). */
export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * Signs a webhook the Standard Webhooks way: HMAC-SHA256 with the decoded secret over
 * `${id}.${timestamp}.${payload}`, sent as `webhook-signature: v1,<base64>`. Uses Web Crypto, so it runs on
 * every runtime. The fake API's webhook sender and `Webhook#sign` both use this one function.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ type: 'spv_request.created', timestamp: new Date().toISOString(), data });
 * const headers = await signWebhook({ secret, id: 'msg_1', timestamp: Math.floor(Date.now() / 1000), payload: body });
 * await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 * ```
 */
export async function signWebhook({
  secret,
  id,
  timestamp,
  payload,
}: SignWebhookInput): Promise<WebhookSignatureHeaders> {
  const keyBytes = decodeSecret(secret);
  if (typeof id !== 'string' || !WEBHOOK_ID.test(id)) {
    throw new TypeError('Webhook id must be 1-256 visible ASCII characters without spaces.');
  }
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : timestamp;
  if (!Number.isSafeInteger(seconds) || seconds <= 0 || seconds >= 1e10) {
    throw new TypeError('Webhook timestamp must be positive integer Unix seconds (not milliseconds).');
  }
  const body = asRawBody(payload);
  if (body === undefined) {
    throw new TypeError('Webhook payload must be the raw body: a string, Uint8Array or ArrayBuffer.');
  }
  const stamp = String(seconds);
  const key = await webCryptoEngine.importKey(keyBytes);
  const mac = await webCryptoEngine.sign(key, `${id}.${stamp}.`, body);
  return { 'webhook-id': id, 'webhook-timestamp': stamp, 'webhook-signature': `v1,${mac}` };
}
