import { z } from 'zod';
import type { WebhookEventType } from '../../src/schemas/events.js';
import { openEnum } from '../../src/schemas/open-enum.js';

// Zod schemas of the webhook payloads, for tests: what the fake API emits is parsed with them, and
// test/webhooks/schema-agreement keeps them and the webhooks entry's dependency-free types
// (src/webhooks/events.ts) from drifting apart. The spec shows no payload field but the optional
// `partnerInvestorId` of the two upload events, so they require nothing else: every guessed field is
// optional and nullable, every object loose (unknown fields kept). They stand apart from the API's
// response schemas, so tightening or relaxing those never changes what an event may carry.

/** A field the spec does not show: absent, `null` or the guessed type. */
const guess = <T extends z.ZodType>(schema: T) => schema.nullish();
const text = () => guess(z.string());

const SpvRequestEventStatus = openEnum(['pending-review', 'approved', 'rejected', 'cancelled']);
const SubscriptionEventStatus = openEnum([
  'awaiting-signed-form',
  'awaiting-funding',
  'funding-received',
  'completed',
  'cancelled',
]);

/** `data` of both `spv_request.*` events: guessed to be the SPV request resource. */
export const SpvRequestEventData = z.looseObject({
  spvRequestSlug: text(),
  status: guess(SpvRequestEventStatus),
  templateId: text(),
  templateVersion: text(),
  tenantSlug: text(),
  clientId: text(),
  attributes: guess(z.record(z.string(), z.unknown())),
  createdAt: text(),
  updatedAt: text(),
  rejectionReason: text(),
  cancelledAt: text(),
  approvedAt: text(),
  materialisedRefs: guess(
    z.looseObject({ opportunitySlug: text(), vehicleSlug: text(), spSlug: text(), spcSlug: text() }),
  ),
  feesAndCarry: guess(
    z.looseObject({
      shareClasses: guess(
        z.array(
          z.looseObject({
            name: text(),
            slug: text(),
            managementFeePercent: text(),
            carryPercent: text(),
            setupFee: guess(z.record(z.string(), z.unknown())),
          }),
        ),
      ),
    }),
  ),
});

// Spec rule 1: present when the subscription carried a partner investor id, omitted otherwise.
const uploadFields = {
  partnerInvestorId: z.string().optional(),
  subscriptionSlug: text(),
  spvSlug: text(),
  personId: text(),
  uploadedAt: text(),
  partnerSubscriptionId: text(),
};

/** `data` of `signed_subscription_form.uploaded`: guessed to be the upload result plus the partner's ids. */
export const SignedFormUploadedData = z.looseObject({ ...uploadFields, subscriptionFormUrl: text() });

/** `data` of `funding_receipt.uploaded`: guessed to be the upload result plus the partner's ids. */
export const FundingReceiptUploadedData = z.looseObject({
  ...uploadFields,
  fundingReceiptUrl: text(),
  amount: text(),
  currency: text(),
  wireReference: text(),
});

/** `data` of `subscription.completed`. */
export const SubscriptionCompletedData = z.looseObject({
  subscriptionSlug: text(),
  spvSlug: text(),
  personId: text(),
  status: guess(SubscriptionEventStatus),
  completedAt: text(),
  partnerInvestorId: text(),
  partnerSubscriptionId: text(),
});

function envelope<const T extends WebhookEventType, D extends z.ZodType>(type: T, data: D) {
  return z.looseObject({ type: z.literal(type), timestamp: text(), data });
}

/** `spv_request.created`. */
export const SpvRequestCreatedEvent = envelope('spv_request.created', SpvRequestEventData);
/** `spv_request.completed`. */
export const SpvRequestCompletedEvent = envelope('spv_request.completed', SpvRequestEventData);
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
 * A webhook body in the `{ type, timestamp, data }` envelope (DESIGN.md's guess), one member per known
 * event type, told apart by `type`. Only `type` and an object `data` are required.
 */
export const KnownWebhookEvent = z.discriminatedUnion('type', [
  SpvRequestCreatedEvent,
  SpvRequestCompletedEvent,
  SignedSubscriptionFormUploadedEvent,
  FundingReceiptUploadedEvent,
  SubscriptionCompletedEvent,
]);
