import type { SpvRequest } from '../wire/spv-requests.js';
import type { SubscriptionResult } from '../wire/subscriptions.js';
import type { SpvRequestRecord, SubscriptionRecord } from './records.js';

/** Epoch milliseconds as the API's ISO 8601 UTC timestamp. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** An SPV request record as the API returns it (optional fields only when set). */
export function spvRequestResource(record: SpvRequestRecord): SpvRequest {
  return {
    spvRequestSlug: record.slug,
    status: record.status,
    templateId: record.templateId,
    templateVersion: record.templateVersion,
    tenantSlug: record.tenantSlug,
    clientId: record.clientId,
    attributes: structuredClone(record.attributes),
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    ...(record.rejectionReason === undefined ? {} : { rejectionReason: record.rejectionReason }),
    ...(record.cancelledAt === undefined ? {} : { cancelledAt: iso(record.cancelledAt) }),
    ...(record.approvedAt === undefined ? {} : { approvedAt: iso(record.approvedAt) }),
    ...(record.materialisedRefs === undefined ? {} : { materialisedRefs: { ...record.materialisedRefs } }),
    ...(record.shareClasses === undefined
      ? {}
      : { feesAndCarry: { shareClasses: structuredClone(record.shareClasses) } }),
  };
}

/** A subscription record as the subscriptions endpoint returns it. */
export function subscriptionResult(record: SubscriptionRecord): SubscriptionResult {
  return {
    subscriptionSlug: record.slug,
    spvSlug: record.spvSlug,
    personId: record.personId,
    status: record.status,
    lumpSum: { ...record.lumpSum },
    shareClassSlug: record.shareClassSlug,
    ...(record.partnerSubscriptionId === undefined
      ? {}
      : { partnerSubscriptionId: record.partnerSubscriptionId }),
  };
}
