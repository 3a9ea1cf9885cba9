import type { MaterialisedRefs, ShareClass } from '../wire/spv-requests.js';

/** SPV request statuses the fake moves between. */
export type SpvRequestState = 'pending-review' | 'approved' | 'rejected' | 'cancelled';

/** Subscription statuses the fake moves between; `completed` and `cancelled` are terminal. */
export type SubscriptionState =
  | 'awaiting-signed-form'
  | 'awaiting-funding'
  | 'funding-received'
  | 'completed'
  | 'cancelled';

export interface SpvRequestRecord {
  seq: number;
  slug: string;
  clientId: string;
  tenantSlug: string;
  status: SpvRequestState;
  templateId: string;
  templateVersion: string;
  attributes: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  rejectionReason?: string;
  cancelledAt?: number;
  approvedAt?: number;
  materialisedRefs?: MaterialisedRefs;
  shareClasses?: ShareClass[];
}

/** An SPV the fake materialised when it approved an SPV request (in `fake.admin.snapshot().spvs`). */
export interface SpvRecord {
  slug: string;
  clientId: string;
  spvRequestSlug: string;
  name: string;
  currency: string;
  shareClasses: ShareClass[];
}

/** An investor (person) the fake holds; `createdAt` is epoch milliseconds on the fake's clock. */
export interface PersonRecord {
  id: string;
  clientId: string;
  /** Absent for investors onboarded outside the partner API (see `admin.createPerson`). */
  partnerInvestorId?: string;
  email: string;
  // Always set by the default profile; the alternate profile accepts rows without them.
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
  countryOfResidence?: string;
  createdAt: number;
}

/** A document on record for a subscription; `uploadedAt` is epoch milliseconds on the fake's clock. */
export interface UploadRecord {
  fileId: string;
  url: string;
  uploadedAt: number;
}

/** A funding receipt on record, with the wire it documents. */
export interface FundingRecord extends UploadRecord {
  amount: string;
  currency: string;
  wireReference: string;
}

/** A subscription as the fake holds it (times are epoch milliseconds on the fake's clock). */
export interface SubscriptionRecord {
  seq: number;
  slug: string;
  clientId: string;
  spvSlug: string;
  personId: string;
  status: SubscriptionState;
  lumpSum: { currency: string; value: string };
  shareClassSlug: string;
  partnerSubscriptionId?: string;
  createdAt: number;
  form?: UploadRecord;
  funding?: FundingRecord;
  completedAt?: number;
  /** Whether `subscription.completed` went out; the reconciler emits it for completed ones where it did not. */
  completedEventEmitted: boolean;
}

export interface StoredFile {
  id: string;
  clientId: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Terminal subscription statuses: no upload is accepted any more. */
export const TERMINAL_SUBSCRIPTION_STATES: ReadonlySet<SubscriptionState> = new Set([
  'completed',
  'cancelled',
]);
