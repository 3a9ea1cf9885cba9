import { z } from 'zod';
import { SpvRequestStatus } from '../wire/spv-requests.js';
import { orNull, Timestamp } from './primitives.js';

/** A share class's one-off fee: `value` (decimal string) and `currencyCode`. */
export const SetupFee = z.looseObject({
  value: z.string(),
  currencyCode: z.string(),
});
export type SetupFee = z.infer<typeof SetupFee>;

/** A share class of an approved SPV; `slug` is an opaque id (`shc_…`). */
export const ShareClass = z.looseObject({
  name: z.string(),
  slug: z.string(),
  managementFeePercent: z.string(),
  carryPercent: z.string(),
  setupFee: SetupFee,
});
export type ShareClass = z.infer<typeof ShareClass>;

/** Fee terms materialised on approval. */
export const FeesAndCarry = z.looseObject({ shareClasses: z.array(ShareClass) });

/** What approval created. */
export const MaterialisedRefs = z.looseObject({
  opportunitySlug: z.string(),
  vehicleSlug: z.string(),
  spSlug: z.string(),
  spcSlug: z.string(),
});

/** An SPV request: every field always sent, `null` where it has no value. */
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
  rejectionReason: orNull(z.string()),
  cancelledAt: orNull(Timestamp),
  approvedAt: orNull(Timestamp),
  materialisedRefs: orNull(MaterialisedRefs),
  feesAndCarry: orNull(FeesAndCarry),
});
export type SpvRequest = z.infer<typeof SpvRequest>;

/** One entry of a list page: a summary; read the whole request with `GET /v1/spv-requests/{slug}`. */
export const SpvRequestSummary = z.looseObject({
  spvRequestSlug: z.string(),
  status: SpvRequestStatus,
  templateId: z.string(),
  createdAt: Timestamp,
});
export type SpvRequestSummary = z.infer<typeof SpvRequestSummary>;

/** One page of `GET /v1/spv-requests`, oldest first; `count` counts the documents on this page. */
export const SpvRequestPage = z.looseObject({
  documents: z.array(SpvRequestSummary),
  count: z.int().nonnegative(),
  skip: z.int().nonnegative(),
  limit: z.int().positive(),
});
export type SpvRequestPage = z.infer<typeof SpvRequestPage>;

/**
 * `POST /v1/spv-requests` body, Pydantic `extra='forbid'` style: an unknown field is a 422
 * (`extra_forbidden`); `templateVersion` may be absent or `null` (the newest version with the template).
 */
export const SpvRequestCreate = z.strictObject({
  templateId: z.string().min(1).max(100),
  templateVersion: z.string().min(1).max(32).nullish(),
  attributes: z.record(z.string(), z.unknown()),
});
export type SpvRequestCreate = z.infer<typeof SpvRequestCreate>;
