import { z } from 'zod';
import { type SUBSCRIPTION_STATUSES as DEFAULT_STATUSES, SubscriptionInput } from '../wire/subscriptions.js';
import { orNull } from './primitives.js';

/** Most rows one `POST /v1/spvs/{spv_slug}/subscriptions` accepts in the alternate profile. */
export const MAX_SUBSCRIPTION_ROWS = 1000;

/** `POST /v1/spvs/{spv_slug}/subscriptions` body. */
export const SubscriptionCreateBody = z.strictObject({
  subscriptions: z.array(SubscriptionInput).min(1).max(MAX_SUBSCRIPTION_ROWS),
});

/** The alternate status for each default one, in the administrative interface's words (`Completed`). */
export const ALTERNATE_SUBSCRIPTION_STATUSES = {
  'awaiting-signed-form': 'Pending',
  'awaiting-funding': 'Signed',
  'funding-received': 'Funded',
  completed: 'Completed',
  cancelled: 'Cancelled',
} as const satisfies Record<(typeof DEFAULT_STATUSES)[number], string>;

/** Subscription statuses; `Completed` and `Cancelled` are terminal. */
export const SUBSCRIPTION_STATUSES = Object.values(ALTERNATE_SUBSCRIPTION_STATUSES);

/** A lump sum as results echo it. */
export const LumpSumResult = z.looseObject({ amount: z.string(), currencyCode: z.string() });

/** One created (or existing) subscription; `partnerSubscriptionId` is `null` when none was given. */
export const SubscriptionResult = z.looseObject({
  subscriptionSlug: z.string(),
  spvSlug: z.string(),
  personId: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  lumpSum: LumpSumResult,
  shareClassSlug: z.string(),
  partnerSubscriptionId: orNull(z.string()),
});
export type SubscriptionResult = z.infer<typeof SubscriptionResult>;

/** `POST /v1/spvs/{spv_slug}/subscriptions` 201 response. */
export const SubscriptionCreateResponse = z.looseObject({ results: z.array(SubscriptionResult) });
