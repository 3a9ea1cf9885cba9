// `@partner-equity/sdk/webhooks` under the `node` export condition: the same API and behaviour as the
// default build, with HMAC through `node:crypto` (synchronous, several times cheaper per call than
// `crypto.subtle` on Node). Only the primitive differs; every rule lives in the shared modules.
import { nodeCryptoEngine } from './node-crypto-engine.js';
import { Webhook as WebCryptoWebhook } from './webhook.js';
import { useHmacEngine } from './webhook-engines.js';

/**
 * Verifies webhook deliveries (see the default build's `Webhook` for the full contract), using
 * `node:crypto` for HMAC-SHA256.
 *
 * @example
 * ```ts
 * import { Webhook } from '@partner-equity/sdk/webhooks';
 * const webhook = new Webhook({ secret: process.env.PARTNER_EQUITY_WEBHOOK_SECRET! });
 * const event = await webhook.verify(rawBody, req.headers);
 * ```
 */
export class Webhook extends WebCryptoWebhook {
  static {
    useHmacEngine(Webhook, nodeCryptoEngine);
  }
}

// Everything else is the default build's explicit export list; the local `Webhook` above takes precedence
// over the re-exported one (a local export always shadows `export *`).
export * from './index.js';
