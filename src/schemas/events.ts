import { z } from 'zod';
import { Timestamp } from './primitives.js';
import { SpvRequest } from './spv-requests.js';
import { FundingReceiptUploadResult, SignedFormUploadResult } from './uploads.js';

/** The five event types the spec names (it mentions nine; the other four are not shown). */
export const WEBHOOK_EVENT_TYPES = [
  'spv_request.created',
  'spv_request.completed',
  'signed_subscription_form.uploaded',
  'funding_receipt.uploaded',
  'subscription.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

// Spec rule 1: present when the subscription's investor was created with a partner investor id.
const partnerIds = {
  partnerInvestorId: z.string().optional(),
  partnerSubscriptionId: z.string().optional(),
};

/** `data` of `signed_subscription_form.uploaded`: the upload result plus the partner's ids when known. */
export const SignedFormUploadedData = SignedFormUploadResult.extend(partnerIds);
export type SignedFormUploadedData = z.infer<typeof SignedFormUploadedData>;

/** `data` of `funding_receipt.uploaded`: the upload result plus the partner's ids when known. */
export const FundingReceiptUploadedData = FundingReceiptUploadResult.extend(partnerIds);
export type FundingReceiptUploadedData = z.infer<typeof FundingReceiptUploadedData>;

/** `data` of `subscription.completed`. */
export const SubscriptionCompletedData = z.looseObject({
  subscriptionSlug: z.string(),
  spvSlug: z.string(),
  personId: z.string(),
  status: z.string(),
  completedAt: Timestamp,
  ...partnerIds,
});
export type SubscriptionCompletedData = z.infer<typeof SubscriptionCompletedData>;

function envelope<const T extends WebhookEventType, D extends z.ZodType>(type: T, data: D) {
  return z.looseObject({ type: z.literal(type), timestamp: Timestamp, data });
}

/** `spv_request.created` — `data` is the SPV request as `GET /v1/spv-requests/{slug}` returns it. */
export const SpvRequestCreatedEvent = envelope('spv_request.created', SpvRequest);
/** `spv_request.completed` — `data` is the approved SPV request with `materialisedRefs` and `feesAndCarry`. */
export const SpvRequestCompletedEvent = envelope('spv_request.completed', SpvRequest);
/** `signed_subscription_form.uploaded`. */
export const SignedSubscriptionFormUploadedEvent = envelope(
  'signed_subscription_form.uploaded',
  SignedFormUploadedData,
);
/** `funding_receipt.uploaded`. */
export const FundingReceiptUploadedEvent = envelope('funding_receipt.uploaded', FundingReceiptUploadedData);
/** `subscription.completed`. */
export const SubscriptionCompletedEvent = envelope('subscription.completed', SubscriptionCompletedData);

/**
 * A webhook body: `{ type, timestamp, data }` (DESIGN.md's envelope), signed the Standard Webhooks way.
 * One member per known event type, told apart by `type`.
 */
export const KnownWebhookEvent = z.discriminatedUnion('type', [
  SpvRequestCreatedEvent,
  SpvRequestCompletedEvent,
  SignedSubscriptionFormUploadedEvent,
  FundingReceiptUploadedEvent,
  SubscriptionCompletedEvent,
]);
export type KnownWebhookEvent = z.infer<typeof KnownWebhookEvent>;
