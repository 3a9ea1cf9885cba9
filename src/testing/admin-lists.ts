import type { FakeState } from './state/fake-state.js';
import type { SubscriptionRecord } from './state/records.js';
import { spvRequestResource } from './state/resources.js';
import type { SpvRequest } from './wire/spv-requests.js';

/** Filters of {@link FakeAdmin.listSpvRequests}; every field narrows the list. */
export interface SpvRequestListFilter {
  /** One status, or several (any of them). */
  status?: string | readonly string[];
  clientId?: string;
  templateId?: string;
  /** Most items returned, newest first. @default 50 */
  limit?: number;
  /** Items skipped before the first one returned. @default 0 */
  offset?: number;
}

/** Filters of {@link FakeAdmin.listSubscriptions}; every field narrows the list. */
export interface SubscriptionListFilter {
  /** One status, or several (any of them). */
  status?: string | readonly string[];
  clientId?: string;
  spvSlug?: string;
  personId?: string;
  /** Most items returned, newest first. @default 50 */
  limit?: number;
  /** Items skipped before the first one returned. @default 0 */
  offset?: number;
}

/**
 * One page of an admin list, with counts, so a fake holding thousands of records answers in a few lines.
 * `total` counts every record that matches the filters; `byStatus` counts the records that match every
 * filter except `status`, per status, so one call shows where things stand.
 */
export interface FakeAdminList<Item> {
  total: number;
  byStatus: Record<string, number>;
  offset: number;
  limit: number;
  /** Newest first. */
  items: Item[];
}

/** Default page size of the admin lists. */
export const DEFAULT_LIST_LIMIT = 50;

interface Listed {
  seq: number;
  status: string;
}

function page<R extends Listed, Item>(
  records: Iterable<R>,
  filter: { status?: string | readonly string[]; limit?: number; offset?: number },
  matches: (record: R) => boolean,
  view: (record: R) => Item,
): FakeAdminList<Item> {
  const limit = filter.limit ?? DEFAULT_LIST_LIMIT;
  const offset = filter.offset ?? 0;
  for (const [name, value] of [
    ['limit', limit],
    ['offset', offset],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a whole number >= 0, got ${value}`);
    }
  }
  const statuses = filter.status === undefined ? undefined : new Set([filter.status].flat());
  const byStatus: Record<string, number> = {};
  const selected: R[] = [];
  for (const record of records) {
    if (!matches(record)) continue;
    byStatus[record.status] = (byStatus[record.status] ?? 0) + 1;
    if (statuses === undefined || statuses.has(record.status)) selected.push(record);
  }
  selected.sort((a, b) => b.seq - a.seq);
  return {
    total: selected.length,
    byStatus,
    offset,
    limit,
    items: selected.slice(offset, offset + limit).map(view),
  };
}

/** SPV requests matching `filter`, newest first, as the API returns them. */
export function listSpvRequests(state: FakeState, filter: SpvRequestListFilter): FakeAdminList<SpvRequest> {
  return page(
    state.spvRequests.values(),
    filter,
    (r) =>
      (filter.clientId === undefined || r.clientId === filter.clientId) &&
      (filter.templateId === undefined || r.templateId === filter.templateId),
    spvRequestResource,
  );
}

/** Subscriptions matching `filter`, newest first, as copies of what the fake holds. */
export function listSubscriptions(
  state: FakeState,
  filter: SubscriptionListFilter,
): FakeAdminList<SubscriptionRecord> {
  return page(
    state.subscriptions.values(),
    filter,
    (s) =>
      (filter.clientId === undefined || s.clientId === filter.clientId) &&
      (filter.spvSlug === undefined || s.spvSlug === filter.spvSlug) &&
      (filter.personId === undefined || s.personId === filter.personId),
    (s) => structuredClone(s),
  );
}
