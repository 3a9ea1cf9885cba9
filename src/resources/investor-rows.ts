import { FirstSeen } from '../core/bulk/first-seen.js';
import { InputValidationError, type ValidationIssue } from '../core/errors/errors.js';
import { InvestorInput, type InvestorRowFailure, type InvestorRowResult } from '../schemas/investors.js';
import { fastInvestorRow } from './fast-investor-row.js';
import { investorRowError } from './investor-row-error.js';

/** The rows of one `investors.create` call after the up-front checks; row checks run per range. */
export interface CheckedInvestorRows {
  /** Every row: parsed for rows to send, as given for refused ones (which are never sent). */
  inputs: InvestorInput[];
  /** Failed results for rows refused before sending, by position; `undefined` for rows to send. */
  prefilled: (InvestorRowResult | undefined)[];
  /**
   * Checks rows `[start, end)` against `InvestorInput` (once each), completing `inputs` and `prefilled`
   * there; read neither in a range before checking it. Lets the checks of later chunks overlap with the
   * requests of earlier ones.
   */
  check(start: number, end: number): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks investor rows. A malformed call — not an array, or a row that is not an
 * object or has no `partnerInvestorId` (a result could not be keyed) — throws one `InputValidationError`
 * naming every such row. Other bad rows are answered like the API answers them: a failed result with a
 * row error (`retryable: false`) and not sent. A `partnerInvestorId` seen earlier in the same call fails
 * with `duplicate_in_request` (the first occurrence alone is sent), across chunks too. The call-wide checks
 * (malformed call, duplicates) run here; the per-row ones when `check` is called for the row's range.
 */
export function checkInvestorRows(investors: unknown): CheckedInvestorRows {
  if (!Array.isArray(investors)) {
    throw new InputValidationError('investors.create input', [
      { path: 'investors', message: 'Expected an array of investor rows' },
    ]);
  }
  // One pass: malformed rows (reported together, before anything is sent) and duplicates. Duplicates are
  // global (the first occurrence anywhere in the call is the one sent); `FirstSeen` says where an id first
  // appeared. Rows still to check are marked in `pending`.
  const malformed: ValidationIssue[] = [];
  const rows = investors as (Record<string, unknown> & { partnerInvestorId: string })[];
  const pending = new Uint8Array(rows.length);
  const prefilled: (InvestorRowResult | undefined)[] = new Array(rows.length);
  // Each id as read once (a getter is not asked again), for the table to compare against.
  const ids: string[] = new Array(rows.length);
  const seen = new FirstSeen(rows.length, ids);
  for (let index = 0; index < rows.length; index += 1) {
    const row: unknown = rows[index];
    if (!isRecord(row)) {
      malformed.push({ path: `investors.${index}`, message: 'Expected an object' });
      continue;
    }
    const partnerInvestorId = row['partnerInvestorId'];
    if (typeof partnerInvestorId !== 'string' || partnerInvestorId === '') {
      malformed.push({
        path: `investors.${index}.partnerInvestorId`,
        message: 'Required: a non-empty string (it keys the row result)',
      });
      continue;
    }
    if (malformed.length > 0) continue; // the call is refused whole; duplicates no longer matter
    ids[index] = partnerInvestorId;
    const first = seen.add(partnerInvestorId, index);
    if (first === -1) {
      pending[index] = 1;
      continue;
    }
    prefilled[index] = failed(partnerInvestorId, {
      code: 'duplicate_in_request',
      message: `partnerInvestorId also appears at index ${first} of this call; only that row was sent`,
      retryable: false,
      field: 'partnerInvestorId',
    });
  }
  if (malformed.length > 0) throw new InputValidationError('investors.create input', malformed);
  return new CheckedRows(rows, rows.slice() as InvestorInput[], prefilled, pending);
}

// A class, so that `check` is the same function for every call: V8 optimises the bulk loop that calls it
// for the function it saw, and a closure made per call made that code start over on every call.
class CheckedRows implements CheckedInvestorRows {
  readonly inputs: InvestorInput[];
  readonly prefilled: (InvestorRowResult | undefined)[];
  readonly #rows: readonly (Record<string, unknown> & { partnerInvestorId: string })[];
  // 1 for rows still to check.
  readonly #pending: Uint8Array;

  constructor(
    rows: readonly (Record<string, unknown> & { partnerInvestorId: string })[],
    inputs: InvestorInput[],
    prefilled: (InvestorRowResult | undefined)[],
    pending: Uint8Array,
  ) {
    this.#rows = rows;
    this.inputs = inputs;
    this.prefilled = prefilled;
    this.#pending = pending;
  }

  check(start: number, end: number): void {
    const rows = this.#rows;
    const pending = this.#pending;
    for (let index = start; index < end && index < rows.length; index += 1) {
      if (pending[index] === 0) continue;
      const row = rows[index] as (typeof rows)[number];
      // The usual row passes as it is (`inputs` already holds it); zod decides the rest.
      if (fastInvestorRow(row) === undefined) {
        const parsed = InvestorInput.safeParse(row);
        if (parsed.success) this.inputs[index] = parsed.data;
        else this.prefilled[index] = failed(row.partnerInvestorId, investorRowError(parsed.error.issues));
      }
      pending[index] = 0;
    }
  }
}

function failed(partnerInvestorId: string, error: InvestorRowFailure['error']): InvestorRowFailure {
  return { partnerInvestorId, status: 'failed', error };
}
