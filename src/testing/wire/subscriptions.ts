import { z } from 'zod';
import { openEnum } from '../../schemas/open-enum.js';
import { CurrencyCode, PositiveDecimalString } from './primitives.js';

/** Most rows one `POST /v1/spvs/{spv_slug}/subscriptions` accepts (the fake's choice; more is a 422). */
export const MAX_SUBSCRIPTION_ROWS = 500;

/** A lump sum to invest: the currency must be the SPV's currency. */
export const LumpSum = z.strictObject({
  currency: CurrencyCode,
  value: PositiveDecimalString,
});
export type LumpSum = z.infer<typeof LumpSum>;

/** One subscription to create. */
export const SubscriptionInput = z.strictObject({
  servicePersonId: z.string().min(1).max(64),
  lumpSum: LumpSum,
  shareClassSlug: z.string().min(1).max(64),
  /** Optional; a repeated id in the same SPV returns the existing subscription instead of a new one. */
  partnerSubscriptionId: z.string().min(1).max(128).optional(),
});
export type SubscriptionInput = z.infer<typeof SubscriptionInput>;

/** `POST /v1/spvs/{spv_slug}/subscriptions` body. */
export const SubscriptionCreateBody = z.strictObject({
  subscriptions: z.array(SubscriptionInput).min(1).max(MAX_SUBSCRIPTION_ROWS),
});
export type SubscriptionCreateBody = z.infer<typeof SubscriptionCreateBody>;

/**
 * Subscription statuses (the fake's choice; the spec does not list them): created `awaiting-signed-form`,
 * then `awaiting-funding` once the signed form is on record, `funding-received` once the receipt is, and
 * `completed` or `cancelled` by an administrator. `completed` and `cancelled` are terminal.
 */
export const SUBSCRIPTION_STATUSES = [
  'awaiting-signed-form',
  'awaiting-funding',
  'funding-received',
  'completed',
  'cancelled',
] as const;

/** Subscription status, open to values added later. */
export const SubscriptionStatus = openEnum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** A lump sum as results echo it. */
export const LumpSumResult = z.looseObject({
  currency: z.string(),
  value: z.string(),
});
export type LumpSumResult = z.infer<typeof LumpSumResult>;

/** One created (or, for a repeated `partnerSubscriptionId`, existing) subscription. */
export const SubscriptionResult = z.looseObject({
  subscriptionSlug: z.string(),
  spvSlug: z.string(),
  personId: z.string(),
  status: SubscriptionStatus,
  lumpSum: LumpSumResult,
  shareClassSlug: z.string(),
  partnerSubscriptionId: z.string().optional(),
});
export type SubscriptionResult = z.infer<typeof SubscriptionResult>;

/** `POST /v1/spvs/{spv_slug}/subscriptions` 201 response. */
export const SubscriptionCreateResponse = z.looseObject({
  results: z.array(SubscriptionResult),
});
export type SubscriptionCreateResponse = z.infer<typeof SubscriptionCreateResponse>;
