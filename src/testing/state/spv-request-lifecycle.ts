import { findTemplate } from '../contracts/contract-library.js';
import { randomId } from '../ids.js';
import type { FakeServices } from '../services.js';
import type { ShareClass } from '../wire/spv-requests.js';
import type { SpvRequestRecord } from './records.js';
import { spvRequestResource } from './resources.js';

/**
 * Thrown by admin controls used out of order (approving a cancelled request…): a bug in the test. `code`
 * tells a missing record (`not_found`) from one in the wrong state (`invalid_state`).
 */
export class FakeAdminError extends Error {
  readonly code: 'not_found' | 'invalid_state';

  constructor(message: string, code: 'not_found' | 'invalid_state' = 'invalid_state') {
    super(message);
    this.name = 'FakeAdminError';
    this.code = code;
  }
}

function pending(services: FakeServices, slug: string, action: string): SpvRequestRecord {
  const record = services.state.spvRequests.get(slug);
  if (record === undefined) {
    throw new FakeAdminError(`Cannot ${action}: no SPV request ${slug}`, 'not_found');
  }
  if (record.status !== 'pending-review') {
    throw new FakeAdminError(
      `Cannot ${action} SPV request ${slug}: it is ${record.status}, not pending-review`,
    );
  }
  return record;
}

/**
 * Administrator approval: materialises the SPV (opportunity, vehicle, SP, SPC) with the template's share
 * classes and emits `spv_request.completed`. The vehicle slug is the `{spv_slug}` of the SPV endpoints.
 */
export function approveSpvRequest(services: FakeServices, slug: string): SpvRequestRecord {
  const record = pending(services, slug, 'approve');
  const found = findTemplate(record.templateId, record.templateVersion);
  if (found === undefined) throw new FakeAdminError(`Template ${record.templateId} vanished`);
  const taken = new Set<string>();
  const shareClasses: ShareClass[] = found.template.shareClasses(record.attributes).map((terms) => ({
    name: terms.name,
    slug: services.profile.routes.shareClassSlug(terms.name, taken),
    managementFeePercent: terms.managementFeePercent,
    carryPercent: terms.carryPercent,
    setupFee: { ...terms.setupFee },
  }));
  const now = services.now();
  record.status = 'approved';
  record.approvedAt = now;
  record.updatedAt = now;
  record.materialisedRefs = {
    opportunitySlug: randomId('opp'),
    vehicleSlug: randomId('spv'),
    spSlug: randomId('sp'),
    spcSlug: randomId('spc'),
  };
  record.shareClasses = shareClasses;
  services.state.spvs.set(record.materialisedRefs.vehicleSlug, {
    slug: record.materialisedRefs.vehicleSlug,
    clientId: record.clientId,
    spvRequestSlug: record.slug,
    name: String(record.attributes['name'] ?? record.slug),
    currency: String(record.attributes['currency'] ?? ''),
    shareClasses,
  });
  services.emit('spv_request.completed', record.clientId, spvRequestResource(record));
  return record;
}

/** Administrator rejection with a reason carried as `rejectionReason`. No event (the spec names none). */
export function rejectSpvRequest(services: FakeServices, slug: string, reason: string): SpvRequestRecord {
  const record = pending(services, slug, 'reject');
  record.status = 'rejected';
  record.rejectionReason = reason;
  record.updatedAt = services.now();
  return record;
}

/** Cancellation, by the owning partner (`DELETE`) or an administrator; sets `cancelledAt`. */
export function cancelSpvRequest(services: FakeServices, slug: string): SpvRequestRecord {
  const record = pending(services, slug, 'cancel');
  const now = services.now();
  record.status = 'cancelled';
  record.cancelledAt = now;
  record.updatedAt = now;
  return record;
}
