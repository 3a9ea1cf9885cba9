import type { z } from 'zod';
import type { ValidationIssue } from '../core/errors/errors.js';
import {
  InvestorInput,
  type InvestorRowError,
  type InvestorRowFailure,
  type InvestorRowResult,
} from './investors.js';

type Checked = { input: InvestorInput } | { result: InvestorRowResult };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const hasId = (row: Record<string, unknown>) =>
  typeof row['partnerInvestorId'] === 'string' && row['partnerInvestorId'] !== '';

/**
 * One row against `InvestorInput`, as its chunk is prepared: the parsed row to send, or a failed result
 * with the row error (`retryable: false`), like the API answers one.
 */
export function checkInvestorRow(row: InvestorInput): Checked {
  const parsed = InvestorInput.safeParse(row);
  return parsed.success
    ? { input: parsed.data }
    : { result: failed(row.partnerInvestorId, investorRowError(parsed.error.issues)) };
}

/**
 * Checks investor rows call-wide before anything is sent. A malformed call — neither an array nor an
 * `AsyncIterable`, or an array row that is not an object or has no `partnerInvestorId` (a result could not
 * be keyed) — has an issue naming every such row; none for a well-formed call. Each row's own fields and a
 * repeated `partnerInvestorId` are checked as its chunk is read ({@link investorRowCheck}).
 */
export function checkInvestorRows(investors: unknown): ValidationIssue[] {
  if (isRecord(investors) && Symbol.asyncIterator in investors) return [];
  if (!Array.isArray(investors)) {
    return [{ path: 'investors', message: 'Expected an array or an AsyncIterable of investor rows' }];
  }
  const malformed: ValidationIssue[] = [];
  // A loop, not forEach: a sparse array's holes are rows too.
  for (let index = 0; index < investors.length; index += 1) {
    const row: unknown = investors[index];
    if (!isRecord(row)) malformed.push({ path: `investors.${index}`, message: 'Expected an object' });
    else if (!hasId(row)) {
      malformed.push({
        path: `investors.${index}.partnerInvestorId`,
        message: 'Required: a non-empty string (it keys the row result)',
      });
    }
  }
  return malformed;
}

/**
 * The row check of one `investors.create` call: a `partnerInvestorId` seen at most `window` positions
 * earlier fails with `duplicate_in_request` (the first occurrence alone is sent); then
 * {@link checkInvestorRow}. An array's window is the whole call; a stream's covers the chunks held at once,
 * so memory stays bounded (a repeat further apart is sent and the API answers it `existing`). A stream's
 * malformed row fails alone with `invalid_field`.
 */
export function investorRowCheck(window: number): (row: InvestorInput, position: number) => Checked {
  const firstAt = new Map<string, number>();
  return (row, position) => {
    if (!isRecord(row) || !hasId(row)) {
      const message = isRecord(row)
        ? 'Required: a non-empty string (it keys the row result)'
        : 'Expected an object';
      const id =
        isRecord(row) && typeof row['partnerInvestorId'] === 'string' ? row['partnerInvestorId'] : '';
      return {
        result: failed(id, { code: 'invalid_field', message, retryable: false, field: 'partnerInvestorId' }),
      };
    }
    for (const [id, at] of firstAt) {
      if (at >= position - window) break;
      firstAt.delete(id);
    }
    const id = row.partnerInvestorId;
    const first = firstAt.get(id);
    if (first !== undefined) {
      return {
        result: failed(id, {
          code: 'duplicate_in_request',
          message: `partnerInvestorId also appears at index ${first} of this call; only that row was sent`,
          retryable: false,
          field: 'partnerInvestorId',
        }),
      };
    }
    firstAt.set(id, position);
    return checkInvestorRow(row);
  };
}

function failed(partnerInvestorId: string, error: InvestorRowFailure['error']): InvestorRowFailure {
  return { partnerInvestorId, status: 'failed', error };
}

/** Codes of the row errors the SDK itself gives rows it refuses before sending (never `retryable`). */
export type ClientRowErrorCode = 'invalid_field' | 'duplicate_in_request';

/**
 * The row error for an investor row that failed `InvestorInput`: the first problem decides `field`;
 * `message` names every problem of the row. Never `retryable`: the row must be fixed.
 */
export function investorRowError(issues: readonly z.core.$ZodIssue[]): InvestorRowError {
  const described = issues.map((issue) => ({
    field: String(issue.path[0] ?? 'partnerInvestorId'),
    message: issue.message,
  }));
  return {
    code: 'invalid_field' satisfies ClientRowErrorCode,
    message: described.map((item) => `${item.field}: ${item.message}`).join('; '),
    retryable: false,
    field: described[0]?.field ?? 'partnerInvestorId',
  };
}
