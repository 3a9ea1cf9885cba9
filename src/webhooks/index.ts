/**
 * Verifying Partner Equity webhooks (Standard Webhooks by default, any HMAC-SHA256 scheme on request) and
 * dispatching them to typed handlers: {@link Webhook}, {@link WebhookReceiver} and the framework adapters.
 * Runs on every runtime.
 *
 * @module @partner-equity/sdk/webhooks
 */
// `@partner-equity/sdk/webhooks`, default build: Web Crypto only — no `node:` imports, no Buffer — so it
// runs on Workers, Deno, Bun, Vercel Edge and Node alike. Node resolves `index.node.ts` instead.

export { DOCTOR_PROBE_EVENT_TYPE } from './doctor-probe.js';
export type {
  KnownWebhookEvent,
  RecognisedWebhookEvent,
  UnknownWebhookEvent,
  UnrecognisedWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
} from './event-union.js';
export type {
  FundingReceiptUploadedData,
  KnownWebhookEventType,
  SignedSubscriptionFormUploadedData,
  SpvRequestCompletedData,
  SpvRequestCreatedData,
  SpvRequestEventData,
  SpvRequestStatus,
  SubscriptionCompletedData,
  SubscriptionStatus,
  WebhookDeliveryFields,
  WebhookEventDataMap,
  WebhookEventFields,
  WebhookFeesAndCarry,
  WebhookMaterialisedRefs,
  WebhookShareClass,
} from './events.js';
export { createFetchHandler, type FetchHandlerOptions } from './fetch-handler.js';
export {
  createNodeHandler,
  type NodeHandlerOptions,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
} from './node-handler.js';
export { isKnownEventType, parseWebhookEvent } from './parse-event.js';
export type { WebhookRequestHeaders } from './read-header.js';
export { WEBHOOK_RETRY_WINDOW_SECONDS } from './retry-window.js';
export { DEFAULT_WEBHOOK_SCHEME, WEBHOOK_SCHEMES } from './scheme/presets.js';
export { resolveWebhookScheme } from './scheme/resolve-webhook-scheme.js';
export type {
  WebhookScheme,
  WebhookSchemeDescription,
  WebhookSchemeInput,
  WebhookSchemePreset,
  WebhookSecretEncoding,
  WebhookSignatureEncoding,
  WebhookSignedContent,
} from './scheme/webhook-scheme.js';
export { MIN_SECRET_BYTES } from './secret.js';
export {
  type SignedWebhookHeaders,
  type SignWebhookInput,
  signWebhook,
  type WebhookSignatureHeaders,
} from './sign.js';
export { MAX_SIGNATURES } from './signature-header.js';
export type { RawBody } from './signed-content.js';
export { VerifiedWebhook, type VerifiedWebhookInit } from './verified-webhook.js';
export { Webhook, type WebhookOptions } from './webhook.js';
export {
  MemoryWebhookIdStore,
  type MemoryWebhookIdStoreOptions,
  type WebhookIdState,
  type WebhookIdStore,
} from './webhook-id-store.js';
export type { WebhookLogger } from './webhook-logger.js';
export {
  type WebhookErrorContext,
  type WebhookErrorHandler,
  type WebhookHandler,
  type WebhookReceipt,
  WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook-receiver.js';
export {
  WebhookVerificationError,
  type WebhookVerificationErrorDetails,
  type WebhookVerificationReason,
} from './webhook-verification-error.js';
