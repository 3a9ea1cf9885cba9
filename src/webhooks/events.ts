// Event types of the spec's Events section. The spec names five events and leaves payloads "not shown";
// the fields below are this SDK's (and its fake API's) concrete choice. Every payload is a loose object:
// fields the service adds later are kept and reachable through the index signature.

/** SPV request status; unknown future values arrive as plain strings. */
export type SpvRequestStatus = 'pending-review' | 'approved' | 'rejected' | 'cancelled' | (string & {});

/** `data` of `spv_request.created`. */
export interface SpvRequestCreatedData {
  [field: string]: unknown;
  spvRequestSlug: string;
  status: SpvRequestStatus;
  templateId: string;
  templateVersion?: string;
  clientId?: string;
  /** ISO 8601 date-time. */
  createdAt?: string;
}

/** What approval created (the SPV request's `materialisedRefs`). */
export interface MaterialisedRefs {
  [field: string]: unknown;
  opportunitySlug?: string;
  vehicleSlug?: string;
  spSlug?: string;
  spcSlug?: string;
}

/** `data` of `spv_request.completed`: an administrator approved the request and the SPV exists. */
export interface SpvRequestCompletedData {
  [field: string]: unknown;
  spvRequestSlug: string;
  status: SpvRequestStatus;
  /** The new SPV; use it as `spvSlug` for subscriptions and uploads. */
  spvSlug: string;
  templateId?: string;
  /** ISO 8601 date-time. */
  approvedAt?: string;
  materialisedRefs?: MaterialisedRefs;
}

/** `data` of `signed_subscription_form.uploaded`. */
export interface SignedSubscriptionFormUploadedData {
  [field: string]: unknown;
  subscriptionSlug: string;
  spvSlug: string;
  personId: string;
  /** ISO 8601 date-time. */
  uploadedAt: string;
  subscriptionFormUrl?: string;
  /** Present when the subscription carried a partner investor id (spec, Events rule 1). */
  partnerInvestorId?: string;
  partnerSubscriptionId?: string;
}

/** `data` of `funding_receipt.uploaded`. */
export interface FundingReceiptUploadedData {
  [field: string]: unknown;
  subscriptionSlug: string;
  spvSlug: string;
  personId: string;
  /** Decimal amount as a string, e.g. `"25000.00"`. */
  amount: string;
  /** ISO 4217 code. */
  currency: string;
  /** ISO 8601 date-time. */
  uploadedAt: string;
  wireReference?: string;
  fundingReceiptUrl?: string;
  /** Present when the subscription carried a partner investor id (spec, Events rule 1). */
  partnerInvestorId?: string;
  partnerSubscriptionId?: string;
}

/** `data` of `subscription.completed` (may arrive up to a reconciler sweep, ~60 s, late). */
export interface SubscriptionCompletedData {
  [field: string]: unknown;
  subscriptionSlug: string;
  spvSlug: string;
  personId: string;
  /** Subscription status, `"Completed"` for this event. */
  status: string;
  /** ISO 8601 date-time. */
  completedAt?: string;
  partnerSubscriptionId?: string;
}

/** Payload type of each named event. */
export interface WebhookEventDataMap {
  'spv_request.created': SpvRequestCreatedData;
  'spv_request.completed': SpvRequestCompletedData;
  'signed_subscription_form.uploaded': SignedSubscriptionFormUploadedData;
  'funding_receipt.uploaded': FundingReceiptUploadedData;
  'subscription.completed': SubscriptionCompletedData;
}

/** The event types this SDK version knows. */
export type KnownWebhookEventType = keyof WebhookEventDataMap;

/** Fields every verified event carries: the envelope plus what verification learned. */
interface WebhookEventFields {
  /** Unknown envelope fields are kept. */
  [field: string]: unknown;
  /** When the event happened (ISO 8601), from the envelope. */
  timestamp: string;
  /** The `webhook-id` header: identical on every retry of one message, so de-duplicate on it. */
  webhookId: string;
  /** Index of the configured secret that matched; once no event matches index 0… retire the older ones. */
  secretIndex: number;
}

/** A verified event of a type this SDK knows; `known` narrows the union before switching on `type`. */
export type KnownWebhookEvent<T extends KnownWebhookEventType = KnownWebhookEventType> = {
  [K in T]: WebhookEventFields & { known: true; type: K; data: WebhookEventDataMap[K] };
}[T];

/**
 * A verified event whose `type` this SDK version does not know yet (the service added one). It is still
 * delivered — to `onAny` handlers and to `on(type)` for that exact string — never dropped.
 */
export type UnknownWebhookEvent = WebhookEventFields & {
  known: false;
  type: string;
  data: Record<string, unknown>;
};

/**
 * What `Webhook#verify` returns.
 *
 * @example
 * ```ts
 * const event = await webhook.verify(rawBody, headers);
 * if (event.known && event.type === 'spv_request.completed') console.log(event.data.spvSlug);
 * ```
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

/** The event `on(type, …)` hands over for `type`. */
export type WebhookEventOf<T extends string> = T extends KnownWebhookEventType
  ? KnownWebhookEvent<T>
  : UnknownWebhookEvent;
