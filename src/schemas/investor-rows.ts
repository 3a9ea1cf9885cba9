import type { z } from 'zod';
import type { ValidationIssue } from '../core/errors/errors.js';
import { isRecord } from '../core/is-record.js';
import { InvestorInput, type InvestorRowFailure, type InvestorRowResult } from './investors.js';
import { SubscriptionInput, type SubscriptionRowError, type SubscriptionRowResult } from './subscriptions.js';

type Checked<Input, Result> = { input: Input } | { result: Result };

// Why a row cannot be keyed, as the place of the problem within the row and a message.
function unkeyed(row: unknown): [place: string, message: string] | undefined {
  if (!isRecord(row)) return ['', 'Expected an object'];
  const id = row['partnerInvestorId'];
  if (typeof id !== 'string' || id === '')
    return ['.partnerInvestorId', 'Required: a non-empty string (it keys the row result)'];
  return undefined;
}

// A failed row's field and every problem of it as one message, in the order the schema declares its fields.
function describe({ issues }: z.ZodError) {
  return [issues[0]?.path[0], issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')] as const;
}

/**
 * Checks investor rows call-wide before anything is sent. A malformed call — neither an array nor an
 * `AsyncIterable`, or an array row that is not an object or has no `partnerInvestorId` (a result could not
 * be keyed) — has an issue naming every such row. Each row's own fields are checked as its chunk is read.
 */
export function checkInvestorRows(investors: unknown): ValidationIssue[] {
  if (isRecord(investors) && Symbol.asyncIterator in investors) return [];
  if (!Array.isArray(investors))
    return [{ path: 'investors', message: 'Expected an array or an AsyncIterable of investor rows' }];
  const issues: ValidationIssue[] = [];
  // A loop, not forEach: a sparse array's holes are rows too.
  for (let index = 0; index < investors.length; index += 1) {
    const [place, message] = unkeyed(investors[index]) ?? [];
    if (message !== undefined) issues.push({ path: `investors.${index}${place}`, message });
  }
  return issues;
}

/**
 * The row check of one `investors.create` call: a `partnerInvestorId` seen at most `window` positions
 * earlier fails with `duplicate_in_request` (the first occurrence alone is sent); a row failing
 * `InvestorInput` fails with `invalid_field`, like the API's row errors. An array's window is the whole call;
 * a stream's covers the chunks held at once, so memory stays bounded (a repeat further apart is sent and the
 * API answers it `existing`).
 */
export function investorRowCheck(
  window: number,
): (row: InvestorInput, position: number) => Checked<InvestorInput, InvestorRowResult> {
  const firstAt = new Map<string, number>();
  // The id first seen at each of the last `window` + 1 positions (they come one after the other), forgotten
  // as its position leaves the window. Walking the Map from its oldest entry instead skipped every deleted
  // one each time: 13% of a CSV import's CPU.
  const seen: (string | undefined)[] | undefined = Number.isFinite(window) ? [] : undefined;
  return (row, position) => {
    const slot = position % (window + 1);
    if (seen?.[slot] !== undefined) firstAt.delete(seen[slot]);
    if (seen !== undefined) seen[slot] = undefined;
    const [, message] = unkeyed(row) ?? [];
    if (message !== undefined) return { result: failed('', 'invalid_field', message, 'partnerInvestorId') };
    const id = row.partnerInvestorId;
    const first = firstAt.get(id);
    if (first !== undefined) {
      const message = `partnerInvestorId also appears at index ${first} of this call; only that row was sent`;
      return { result: failed(id, 'duplicate_in_request', message, 'partnerInvestorId') };
    }
    firstAt.set(id, position);
    if (seen !== undefined) seen[slot] = id;
    const parsed = InvestorInput.safeParse(row);
    if (parsed.success) return { input: parsed.data };
    const [field = 'partnerInvestorId', problems] = describe(parsed.error);
    return { result: failed(id, 'invalid_field', problems, String(field)) };
  };
}

function failed(partnerInvestorId: string, code: string, message: string, field: string): InvestorRowFailure {
  return { partnerInvestorId, status: 'failed', error: { code, message, retryable: false, field } };
}

/** A subscription row the API did not answer, failed with `error`. */
export function subscriptionFailure(
  row: SubscriptionInput,
  error: SubscriptionRowError,
): SubscriptionRowResult {
  const { servicePersonId, shareClassSlug, partnerSubscriptionId } = row;
  return { servicePersonId, shareClassSlug, partnerSubscriptionId, error };
}

/** A streamed subscription row against `SubscriptionInput`: the row to send, or failed with `invalid_field`. */
export function checkSubscriptionRow(
  row: SubscriptionInput,
): Checked<SubscriptionInput, SubscriptionRowResult> {
  const parsed = SubscriptionInput.safeParse(row);
  if (parsed.success) return { input: parsed.data as SubscriptionInput };
  const [, message] = describe(parsed.error);
  const error = { code: 'invalid_field', message, retryable: false };
  return { result: subscriptionFailure(isRecord(row) ? row : ({} as SubscriptionInput), error) };
}
