// Event types of the spec's Events section. The spec names five events and shows no payload field but the
// optional `partnerInvestorId` of the two upload events, so every other field below is a guess (the
// resources the matching API calls return): optional and nullable, typed `T | null | undefined`, so code
// written against them handles a service that sends less. Unknown fields are kept (index signatures).
// A field that arrives with another JSON type is delivered as sent; WebhookReceiver logs it once.

/** SPV request status; unknown future values arrive as plain strings. */
export type SpvRequestStatus = 'pending-review' | 'approved' | 'rejected' | 'cancelled' | (string & {});

/** Subscription status: the spec does not list the values, so any string (as in the main entry). */
export type SubscriptionStatus = string;

/** What approval created. `vehicleSlug` is the `{spv_slug}` of the subscription and upload endpoints. */
export interface WebhookMaterialisedRefs {
  [field: string]: unknown;
  opportunitySlug?: string | null | undefined;
  vehicleSlug?: string | null | undefined;
  spSlug?: string | null | undefined;
  spcSlug?: string | null | undefined;
}

/**
 * A share class as an event may carry it: every field optional, since the spec shows no payload field. (The
 * main entry's `ShareClass` is the API resource, whose stated fields are always present; one assigns to
 * this.) `slug` is what subscriptions name as `shareClassSlug`.
 */
export interface WebhookShareClass {
  [field: string]: unknown;
  name?: string | null | undefined;
  slug?: string | null | undefined;
  managementFeePercent?: string | null | undefined;
  carryPercent?: string | null | undefined;
  /** Inner fields not shown by the spec (the fake API uses `amount` and `currency`). */
  setupFee?: Record<string, unknown> | null | undefined;
}

/** Fees and share classes of an approved SPV. */
export interface WebhookFeesAndCarry {
  [field: string]: unknown;
  shareClasses?: WebhookShareClass[] | null | undefined;
}

/** `data` of both `spv_request.*` events: guessed to be the SPV request as `GET /v1/spv-requests/{slug}` returns it. */
export interface SpvRequestEventData {
  [field: string]: unknown;
  spvRequestSlug?: string | null | undefined;
  status?: SpvRequestStatus | null | undefined;
  templateId?: string | null | undefined;
  templateVersion?: string | null | undefined;
  tenantSlug?: string | null | undefined;
  clientId?: string | null | undefined;
  attributes?: Record<string, unknown> | null | undefined;
  /** ISO 8601 date-time. */
  createdAt?: string | null | undefined;
  /** ISO 8601 date-time. */
  updatedAt?: string | null | undefined;
  rejectionReason?: string | null | undefined;
  cancelledAt?: string | null | undefined;
  approvedAt?: string | null | undefined;
  materialisedRefs?: WebhookMaterialisedRefs | null | undefined;
  feesAndCarry?: WebhookFeesAndCarry | null | undefined;
}

/** `data` of `spv_request.created`: the new request (status `pending-review`). */
export type SpvRequestCreatedData = SpvRequestEventData;

/** `data` of `spv_request.completed`: the approved request; `materialisedRefs` when the service sends it. */
export type SpvRequestCompletedData = SpvRequestEventData;

/** `data` of `signed_subscription_form.uploaded`: guessed to be the upload result plus the partner's ids. */
export interface SignedSubscriptionFormUploadedData {
  [field: string]: unknown;
  /** Present when the subscription carried a partner investor id, omitted otherwise (spec, Events rule 1). */
  partnerInvestorId?: string | undefined;
  subscriptionSlug?: string | null | undefined;
  spvSlug?: string | null | undefined;
  personId?: string | null | undefined;
  subscriptionFormUrl?: string | null | undefined;
  /** ISO 8601 date-time. */
  uploadedAt?: string | null | undefined;
  partnerSubscriptionId?: string | null | undefined;
}

/** `data` of `funding_receipt.uploaded`: guessed to be the upload result plus the partner's ids. */
export interface FundingReceiptUploadedData {
  [field: string]: unknown;
  /** Present when the subscription carried a partner investor id, omitted otherwise (spec, Events rule 1). */
  partnerInvestorId?: string | undefined;
  subscriptionSlug?: string | null | undefined;
  spvSlug?: string | null | undefined;
  personId?: string | null | undefined;
  fundingReceiptUrl?: string | null | undefined;
  /** Decimal amount as a string, e.g. `"25000.00"`. */
  amount?: string | null | undefined;
  /** ISO 4217 code. */
  currency?: string | null | undefined;
  wireReference?: string | null | undefined;
  /** ISO 8601 date-time. */
  uploadedAt?: string | null | undefined;
  partnerSubscriptionId?: string | null | undefined;
}

/** `data` of `subscription.completed` (may arrive up to a reconciler sweep, ~60 s, late). */
export interface SubscriptionCompletedData {
  [field: string]: unknown;
  subscriptionSlug?: string | null | undefined;
  spvSlug?: string | null | undefined;
  personId?: string | null | undefined;
  status?: SubscriptionStatus | null | undefined;
  /** ISO 8601 date-time. */
  completedAt?: string | null | undefined;
  partnerInvestorId?: string | null | undefined;
  partnerSubscriptionId?: string | null | undefined;
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

/** What every delivered event carries from verification. */
export interface WebhookDeliveryFields {
  /**
   * The id to de-duplicate on, identical on every retry of one message: the message id header when the
   * scheme signs it, otherwise `sha256:` + the hex SHA-256 of the body (an unsigned id could be changed by
   * anyone replaying a captured delivery).
   */
  webhookId: string;
  /** Index of the first configured secret that matched; once no event matches index 0… retire the older ones. */
  secretIndex: number;
}

/** Fields of an event in the `{ type, timestamp, data }` envelope, plus what verification learned. */
export interface WebhookEventFields extends WebhookDeliveryFields {
  /** Unknown envelope fields are kept. */
  [field: string]: unknown;
  /** When the event happened (ISO 8601), from the envelope, when the service sends it. */
  timestamp?: string | null | undefined;
}
