// Event types of the spec's Events section. The spec names five events and leaves payloads "not shown";
// the fields below are this SDK's (and its fake API's) concrete choice. Every payload is a loose object:
// fields the service adds later are kept and reachable through the index signature.

/** SPV request status; unknown future values arrive as plain strings. */
export type SpvRequestStatus = 'pending-review' | 'approved' | 'rejected' | 'cancelled' | (string & {});

/** Subscription status (the fake API's set); unknown future values arrive as plain strings. */
export type SubscriptionStatus =
  | 'awaiting-signed-form'
  | 'awaiting-funding'
  | 'funding-received'
  | 'completed'
  | 'cancelled'
  | (string & {});

/** What approval created. `vehicleSlug` is the `{spv_slug}` of the subscription and upload endpoints. */
export interface MaterialisedRefs {
  [field: string]: unknown;
  opportunitySlug: string;
  vehicleSlug: string;
  spSlug: string;
  spcSlug: string;
}

/** A share class of an approved SPV; `slug` is what subscriptions name as `shareClassSlug`. */
export interface ShareClass {
  [field: string]: unknown;
  name: string;
  slug: string;
  managementFeePercent: string;
  carryPercent: string;
  /** Inner fields not shown by the spec (the fake API uses `amount` and `currency`). */
  setupFee: Record<string, unknown>;
}

/** The SPV request, as `GET /v1/spv-requests/{slug}` returns it: `data` of both `spv_request.*` events. */
export interface SpvRequestEventData {
  [field: string]: unknown;
  spvRequestSlug: string;
  status: SpvRequestStatus;
  templateId: string;
  templateVersion: string;
  tenantSlug: string;
  clientId: string;
  attributes: Record<string, unknown>;
  /** ISO 8601 date-time. */
  createdAt: string;
  /** ISO 8601 date-time. */
  updatedAt: string;
  rejectionReason?: string | undefined;
  cancelledAt?: string | undefined;
  approvedAt?: string | undefined;
  materialisedRefs?: MaterialisedRefs | undefined;
  feesAndCarry?: { [field: string]: unknown; shareClasses: ShareClass[] } | undefined;
}

/** `data` of `spv_request.created`: the new request (status `pending-review`). */
export type SpvRequestCreatedData = SpvRequestEventData;

/** `data` of `spv_request.completed`: the approved request, with what approval materialised. */
export interface SpvRequestCompletedData extends SpvRequestEventData {
  /** ISO 8601 date-time. */
  approvedAt: string;
  materialisedRefs: MaterialisedRefs;
}

/** `data` of `signed_subscription_form.uploaded`: the upload result plus the partner's ids when known. */
export interface SignedSubscriptionFormUploadedData {
  [field: string]: unknown;
  subscriptionSlug: string;
  spvSlug: string;
  personId: string;
  subscriptionFormUrl: string;
  /** ISO 8601 date-time. */
  uploadedAt: string;
  /** Present when the subscription carried a partner investor id (spec, Events rule 1). */
  partnerInvestorId?: string | undefined;
  partnerSubscriptionId?: string | undefined;
}

/** `data` of `funding_receipt.uploaded`: the upload result plus the partner's ids when known. */
export interface FundingReceiptUploadedData {
  [field: string]: unknown;
  subscriptionSlug: string;
  spvSlug: string;
  personId: string;
  fundingReceiptUrl: string;
  /** Decimal amount as a string, e.g. `"25000.00"`. */
  amount: string;
  /** ISO 4217 code. */
  currency: string;
  wireReference: string;
  /** ISO 8601 date-time. */
  uploadedAt: string;
  /** Present when the subscription carried a partner investor id (spec, Events rule 1). */
  partnerInvestorId?: string | undefined;
  partnerSubscriptionId?: string | undefined;
}

/** `data` of `subscription.completed` (may arrive up to a reconciler sweep, ~60 s, late). */
export interface SubscriptionCompletedData {
  [field: string]: unknown;
  subscriptionSlug: string;
  spvSlug: string;
  personId: string;
  status: SubscriptionStatus;
  /** ISO 8601 date-time. */
  completedAt: string;
  partnerInvestorId?: string | undefined;
  partnerSubscriptionId?: string | undefined;
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
export interface WebhookEventFields {
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
