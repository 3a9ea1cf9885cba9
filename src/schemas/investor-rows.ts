import type { z } from 'zod';
import type { ValidationIssue } from '../core/errors/errors.js';
import {
  InvestorInput,
  type InvestorRowError,
  type InvestorRowFailure,
  type InvestorRowResult,
} from './investors.js';

/** The rows of one `investors.create` call after the call-wide checks. */
export interface CheckedInvestorRows {
  inputs: InvestorInput[];
  /** Failed results for repeated `partnerInvestorId`s, by position; `undefined` for rows to check and send. */
  prefilled: (InvestorRowResult | undefined)[];
  /** What makes the call malformed, one issue per bad row: reported before anything is sent. */
  issues: ValidationIssue[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One row against `InvestorInput`, as its chunk is prepared: the parsed row to send, or a failed result
 * with the row error (`retryable: false`), like the API answers one.
 */
export function checkInvestorRow(
  row: InvestorInput,
): { input: InvestorInput } | { result: InvestorRowResult } {
  const parsed = InvestorInput.safeParse(row);
  return parsed.success
    ? { input: parsed.data }
    : { result: failed(row.partnerInvestorId, investorRowError(parsed.error.issues)) };
}

/**
 * Checks investor rows call-wide. A malformed call — not an array, or a row that is not an object or has no
 * `partnerInvestorId` (a result could not be keyed) — has an issue naming every such row. A `partnerInvestorId` seen earlier in the same call fails with `duplicate_in_request` (the first
 * occurrence alone is sent), across chunks too. Each row's own fields are checked with its chunk
 * ({@link checkInvestorRow}).
 */
export function checkInvestorRows(investors: unknown): CheckedInvestorRows {
  if (!Array.isArray(investors)) {
    const issues = [{ path: 'investors', message: 'Expected an array of investor rows' }];
    return { inputs: [], prefilled: [], issues };
  }
  const malformed: ValidationIssue[] = [];
  // A loop, not forEach: a sparse array's holes are rows too.
  for (let index = 0; index < investors.length; index += 1) {
    const row: unknown = investors[index];
    if (!isRecord(row)) malformed.push({ path: `investors.${index}`, message: 'Expected an object' });
    else if (typeof row['partnerInvestorId'] !== 'string' || row['partnerInvestorId'] === '') {
      malformed.push({
        path: `investors.${index}.partnerInvestorId`,
        message: 'Required: a non-empty string (it keys the row result)',
      });
    }
  }
  if (malformed.length > 0) return { inputs: [], prefilled: [], issues: malformed };

  const rows = investors as InvestorInput[];
  const prefilled: (InvestorRowResult | undefined)[] = new Array(rows.length);
  // Where each id first appeared: that row alone is sent.
  const firstAt = new Map<string, number>();
  rows.forEach((row, index) => {
    const id = row.partnerInvestorId;
    const first = firstAt.get(id);
    if (first !== undefined) {
      prefilled[index] = failed(id, {
        code: 'duplicate_in_request',
        message: `partnerInvestorId also appears at index ${first} of this call; only that row was sent`,
        retryable: false,
        field: 'partnerInvestorId',
      });
      return;
    }
    firstAt.set(id, index);
  });
  return { inputs: rows, prefilled, issues: [] };
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
