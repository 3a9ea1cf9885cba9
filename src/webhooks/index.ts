/**
 * Verifying Partner Equity webhooks (Standard Webhooks) and dispatching them to typed handlers:
 * {@link Webhook}, {@link WebhookReceiver} and the framework adapters. Runs on every runtime.
 *
 * @module @partner-equity/sdk/webhooks
 */
// `@partner-equity/sdk/webhooks`, default build: Web Crypto only — no `node:` imports, no Buffer — so it
// runs on Workers, Deno, Bun, Vercel Edge and Node alike. Node resolves `index.node.ts` instead.
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
  WebhookEventFields,
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
export { MAX_SIGNATURES, Webhook, type WebhookOptions } from './webhook.js';
export {
  MemoryWebhookIdStore,
  type MemoryWebhookIdStoreOptions,
  type WebhookIdState,
  type WebhookIdStore,
} from './webhook-id-store.js';
export {
  type WebhookErrorContext,
  type WebhookErrorHandler,
  type WebhookHandler,
  type WebhookReceipt,
  WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook-receiver.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './webhook-verification-error.js';
