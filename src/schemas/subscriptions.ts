import { z } from 'zod';
import { CurrencyCode, DecimalString, JsonObject, nullish } from './primitives.js';

/** A lump sum to invest: a currency code and a decimal amount written as a string. */
export const LumpSum = z.looseObject({
  currency: CurrencyCode,
  value: DecimalString,
});
export type LumpSum = z.infer<typeof LumpSum>;

/** One subscription to create; fields a later API version adds are sent as given. */
export const SubscriptionInput = z.looseObject({
  servicePersonId: z.string().min(1, 'Required: the person id from investors.create'),
  lumpSum: LumpSum,
  shareClassSlug: z.string().min(1, 'Required: a share class slug of the SPV'),
  partnerSubscriptionId: z.string().min(1).optional(),
});
/** One subscription to create. */
export interface SubscriptionInput {
  /** The person id `investors.create` returned. */
  servicePersonId: string;
  lumpSum: LumpSum;
  /** A share class of the SPV (`feesAndCarry.shareClasses[].slug`). */
  shareClassSlug: string;
  /** Your own id for the subscription. */
  partnerSubscriptionId?: string;
}

/** Subscription status: the spec does not list the values, so any string. */
export type SubscriptionStatus = string;

/** A subscription as results return it. The spec does not show `lumpSum`'s inner fields or the statuses. */
export const SubscriptionResult = z.looseObject({
  subscriptionSlug: z.string(),
  spvSlug: z.string(),
  personId: z.string(),
  status: z.string(),
  lumpSum: JsonObject,
  shareClassSlug: z.string(),
  partnerSubscriptionId: nullish(z.string()),
});
export type SubscriptionResult = z.infer<typeof SubscriptionResult>;

/** `POST /v1/spvs/{spv_slug}/subscriptions` 201 response. */
export const SubscriptionCreateResponse = z.looseObject({
  results: z.array(SubscriptionResult),
});
export type SubscriptionCreateResponse = z.infer<typeof SubscriptionCreateResponse>;

/** Why a subscription row has no result: its chunk failed as a whole, or was not sent. */
export interface SubscriptionRowError {
  /** `request_failed` (the chunk's request failed after retries), `not_sent`, or `missing_result`. */
  code: string;
  message: string;
  /** Whether sending the row again may succeed (the input is in the bulk result's `retryable`). */
  retryable: boolean;
}
/** A row the API subscribed: the server's result, without `error`. */
export type SubscriptionRowSuccess = SubscriptionResult & { error?: undefined };
/** A row without a result: the input's ids and why. */
export interface SubscriptionRowFailure {
  servicePersonId: string;
  shareClassSlug: string;
  partnerSubscriptionId?: string | undefined;
  error: SubscriptionRowError;
}
/** One row's outcome; `row.error` tells the two apart. */
export type SubscriptionRowResult = SubscriptionRowSuccess | SubscriptionRowFailure;
