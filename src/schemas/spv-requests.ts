import { z } from 'zod';
import { openEnum } from './open-enum.js';
import { pageOf } from './page.js';
import { allNullish, JsonObject, nullish, Timestamp } from './primitives.js';

/** The four SPV request states of the spec; `approved`, `rejected` and `cancelled` are terminal. */
export const SPV_REQUEST_STATUSES = ['pending-review', 'approved', 'rejected', 'cancelled'] as const;

/** SPV request status, open to values added later. */
export const SpvRequestStatus = openEnum(SPV_REQUEST_STATUSES);
export type SpvRequestStatus = z.infer<typeof SpvRequestStatus>;

/** A share class's one-off fee. The spec does not show its fields: whatever the server sends is kept. */
export const SetupFee = z.looseObject({});
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

/** What approval created; `vehicleSlug` is the `{spv_slug}` of the subscription and upload endpoints. */
export const MaterialisedRefs = z.looseObject({
  opportunitySlug: z.string(),
  vehicleSlug: z.string(),
  spSlug: z.string(),
  spcSlug: z.string(),
});
export type MaterialisedRefs = z.infer<typeof MaterialisedRefs>;

/**
 * An SPV request as create, get and cancel return it. The spec's table fields are always there;
 * `rejectionReason`, `cancelledAt` and `approvedAt` are "present when …", and `materialisedRefs` and
 * `feesAndCarry` describe what approval created: those may be absent or `null`.
 */
export const SpvRequest = z.looseObject({
  spvRequestSlug: z.string(),
  status: SpvRequestStatus,
  templateId: z.string(),
  templateVersion: z.string(),
  tenantSlug: z.string(),
  clientId: z.string(),
  attributes: JsonObject,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  rejectionReason: nullish(z.string()),
  cancelledAt: nullish(Timestamp),
  approvedAt: nullish(Timestamp),
  materialisedRefs: nullish(MaterialisedRefs),
  feesAndCarry: nullish(FeesAndCarry),
});
export type SpvRequest = z.infer<typeof SpvRequest>;

/**
 * One entry of a list page. The spec does not show the entries' shape (a server may send whole SPV
 * requests or summaries), so every field is optional; read a whole request with `spvRequests.get(slug)`.
 */
export const SpvRequestListItem = z.looseObject(allNullish(SpvRequest.shape));
export type SpvRequestListItem = z.infer<typeof SpvRequestListItem>;

/**
 * `POST /v1/spv-requests` body. The spec shows only that it names a template by `templateId`; every other
 * field (`templateVersion`, `attributes`, fields a later version adds) is passed through as given, and the
 * server validates it against the template (400 with `validationErrors`).
 */
export const SpvRequestCreate = z.looseObject({
  templateId: z.string().min(1, 'Required: the contract template to validate against'),
});
/** The body of `spvRequests.create`: `templateId`, and whatever fields the template asks for. */
export interface SpvRequestCreate {
  /** The contract template the request is validated against. */
  templateId: string;
  /** The contract version of that template (the server's default when omitted). */
  templateVersion?: string;
  /** The attribute map the template validates. */
  attributes?: Record<string, unknown>;
  /** Any other field the contract defines is sent as given. */
  [field: string]: unknown;
}

/** One page of `GET /v1/spv-requests`: `count` is the total across pages, `skip`/`limit` locate this page. */
export const SpvRequestPage = pageOf(SpvRequestListItem);
export type SpvRequestPage = z.infer<typeof SpvRequestPage>;

/** Query of `GET /v1/spv-requests` (bounds and values as the spec states them). */
export const SpvRequestListParams = z.strictObject({
  status: z.enum(SPV_REQUEST_STATUSES).optional(),
  /** @default 10 */
  perPage: z.int().min(1).max(100).optional(),
  /** @default 1 */
  page: z.int().min(1).optional(),
});
export type SpvRequestListParams = z.infer<typeof SpvRequestListParams>;
