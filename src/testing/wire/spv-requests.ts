import { z } from 'zod';
import {
  MaterialisedRefs,
  SPV_REQUEST_STATUSES,
  SpvRequestListParams,
  SpvRequestStatus,
} from '../../schemas/spv-requests.js';
import { Timestamp } from './primitives.js';

// What the spec states is the same for the fake and the SDK: statuses, the list query, materialisedRefs.
export { MaterialisedRefs, SPV_REQUEST_STATUSES, SpvRequestListParams, SpvRequestStatus };

/** A one-off fee charged at closing (the spec leaves its fields open; the fake uses amount + currency). */
export const SetupFee = z.looseObject({
  amount: z.string(),
  currency: z.string(),
});
export type SetupFee = z.infer<typeof SetupFee>;

/** A share class of an approved SPV; `slug` is what subscriptions name as `shareClassSlug`. */
export const ShareClass = z.looseObject({
  name: z.string(),
  slug: z.string(),
  managementFeePercent: z.string(),
  carryPercent: z.string(),
  setupFee: SetupFee,
});
export type ShareClass = z.infer<typeof ShareClass>;

/** Fee terms materialised on approval. */
export const FeesAndCarry = z.looseObject({
  shareClasses: z.array(ShareClass),
});
export type FeesAndCarry = z.infer<typeof FeesAndCarry>;

/** An SPV request as create, get, cancel and list return it. */
export const SpvRequest = z.looseObject({
  spvRequestSlug: z.string(),
  status: SpvRequestStatus,
  templateId: z.string(),
  templateVersion: z.string(),
  tenantSlug: z.string(),
  clientId: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  rejectionReason: z.string().optional(),
  cancelledAt: Timestamp.optional(),
  approvedAt: Timestamp.optional(),
  materialisedRefs: MaterialisedRefs.optional(),
  feesAndCarry: FeesAndCarry.optional(),
});
export type SpvRequest = z.infer<typeof SpvRequest>;

/**
 * `POST /v1/spv-requests` body. `attributes` is checked against the template's JSON Schema by the server
 * (400 with `validationErrors`); `templateVersion` defaults to the newest contract version with that template.
 */
export const SpvRequestCreate = z.strictObject({
  templateId: z.string().min(1).max(100),
  templateVersion: z.string().min(1).max(32).optional(),
  attributes: z.record(z.string(), z.unknown()),
});
export type SpvRequestCreate = z.infer<typeof SpvRequestCreate>;

/** One page of `GET /v1/spv-requests`: `count` is the total across pages, `skip`/`limit` locate this page. */
export const SpvRequestPage = z.looseObject({
  documents: z.array(SpvRequest),
  count: z.int().nonnegative(),
  skip: z.int().nonnegative(),
  limit: z.int().positive(),
});
export type SpvRequestPage = z.infer<typeof SpvRequestPage>;
