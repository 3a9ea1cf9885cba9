import {
  deliveryView,
  type FakeDelivery,
  type FakePerson,
  type FakeSubscription,
  personView,
  subscriptionView,
} from './admin-views.js';
import type { FakeState } from './state/fake-state.js';
import { spvRequestResource } from './state/resources.js';
import type { WebhookDelivery } from './webhooks/webhook-types.js';
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

/** Filters of {@link FakeAdmin.listPersons}; every field narrows the list. */
export interface PersonListFilter {
  clientId?: string;
  partnerInvestorId?: string;
  email?: string;
  /** Most items returned, newest first. @default 50 */
  limit?: number;
  /** Items skipped before the first one returned. @default 0 */
  offset?: number;
}

/** Filters of {@link FakeAdmin.listDeliveries}; every field narrows the list. */
export interface DeliveryListFilter {
  /** One delivery state (`pending`, `delivered`, `dead-lettered`), or several (any of them). */
  status?: string | readonly string[];
  eventType?: string;
  /** Most items returned, newest first. @default 50 */
  limit?: number;
  /** Items skipped before the first one returned. @default 0 */
  offset?: number;
}

/**
 * One page of an admin list, with counts, so a fake holding thousands of records answers in a few lines.
 * `total` counts every record that matches the filters; `byStatus` counts the records that match every
 * filter except `status`, per status, so one call shows where things stand (persons have no status: `{}`).
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

/** `records` in creation order; `statusOf` absent for records without a status. */
function page<R, Item>(
  records: Iterable<R>,
  filter: { status?: string | readonly string[]; limit?: number; offset?: number },
  matches: (record: R) => boolean,
  view: (record: R) => Item,
  statusOf?: (record: R) => string,
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
    const status = statusOf?.(record);
    if (status !== undefined) byStatus[status] = (byStatus[status] ?? 0) + 1;
    if (statuses === undefined || (status !== undefined && statuses.has(status))) selected.push(record);
  }
  selected.reverse();
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
    bySeq(state.spvRequests.values()),
    filter,
    (r) =>
      (filter.clientId === undefined || r.clientId === filter.clientId) &&
      (filter.templateId === undefined || r.templateId === filter.templateId),
    spvRequestResource,
    (r) => r.status,
  );
}

/** Subscriptions matching `filter`, newest first, as copies of what the fake holds. */
export function listSubscriptions(
  state: FakeState,
  filter: SubscriptionListFilter,
): FakeAdminList<FakeSubscription> {
  return page(
    bySeq(state.subscriptions.values()),
    filter,
    (s) =>
      (filter.clientId === undefined || s.clientId === filter.clientId) &&
      (filter.spvSlug === undefined || s.spvSlug === filter.spvSlug) &&
      (filter.personId === undefined || s.personId === filter.personId),
    subscriptionView,
    (s) => s.status,
  );
}

/** Investors (persons) matching `filter`, newest first, as copies of what the fake holds. */
export function listPersons(state: FakeState, filter: PersonListFilter): FakeAdminList<FakePerson> {
  return page(
    state.persons.values(),
    filter,
    (p) =>
      (filter.clientId === undefined || p.clientId === filter.clientId) &&
      (filter.partnerInvestorId === undefined || p.partnerInvestorId === filter.partnerInvestorId) &&
      (filter.email === undefined || p.email === filter.email),
    personView,
  );
}

/** Webhook deliveries matching `filter`, newest first, counted per state. */
export function listDeliveries(
  deliveries: readonly WebhookDelivery[],
  filter: DeliveryListFilter,
): FakeAdminList<FakeDelivery> {
  return page(
    deliveries,
    filter,
    (d) => filter.eventType === undefined || d.eventType === filter.eventType,
    deliveryView,
    (d) => d.state,
  );
}

const bySeq = <R extends { seq: number }>(records: Iterable<R>) => [...records].sort((a, b) => a.seq - b.seq);
