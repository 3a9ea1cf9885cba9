// `@partner-equity/sdk/webhooks` under the `node` export condition: the same API and behaviour as the
// default build, with HMAC through `node:crypto` (synchronous, several times cheaper per call than
// `crypto.subtle` on Node). Only the primitive differs; every rule lives in the shared modules.
import { nodeCryptoEngine } from './node-crypto-engine.js';
import { useHmacEngine, Webhook as WebCryptoWebhook } from './webhook.js';

/**
 * Verifies Standard Webhooks deliveries (see the default build's `Webhook` for the full contract), using
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

export type {
  FundingReceiptUploadedData,
  KnownWebhookEvent,
  KnownWebhookEventType,
  MaterialisedRefs,
  ShareClass,
  SignedSubscriptionFormUploadedData,
  SpvRequestCompletedData,
  SpvRequestCreatedData,
  SpvRequestEventData,
  SpvRequestStatus,
  SubscriptionCompletedData,
  SubscriptionStatus,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventDataMap,
  WebhookEventOf,
} from './events.js';
export { createFetchHandler, type FetchHandlerOptions } from './fetch-handler.js';
export {
  createNodeHandler,
  type NodeHandlerOptions,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
} from './node-handler.js';
export type { WebhookRequestHeaders } from './read-header.js';
export { type SignWebhookInput, signWebhook, type WebhookSignatureHeaders } from './sign.js';
export type { RawBody } from './signed-content.js';
export { MAX_SIGNATURES, type WebhookOptions } from './webhook.js';
export {
  MemoryWebhookIdStore,
  type MemoryWebhookIdStoreOptions,
  type WebhookIdState,
  type WebhookIdStore,
} from './webhook-id-store.js';
export {
  type WebhookErrorContext,
  type WebhookReceipt,
  WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook-receiver.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './webhook-verification-error.js';
