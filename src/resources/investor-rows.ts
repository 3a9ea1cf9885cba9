import { InputValidationError, type ValidationIssue } from '../core/errors/errors.js';
import { InvestorInput, type InvestorRowFailure, type InvestorRowResult } from '../schemas/investors.js';
import { investorRowError } from './investor-row-error.js';

/** The rows of one `investors.create` call after the checks made before anything is sent. */
export interface CheckedInvestorRows {
  /** Every row: parsed for rows to send, as given for refused ones (which are never sent). */
  inputs: InvestorInput[];
  /** Failed results for rows refused before sending, by position; `undefined` for rows to send. */
  prefilled: (InvestorRowResult | undefined)[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks investor rows. A malformed call — not an array, or a row that is not an object or has no
 * `partnerInvestorId` (a result could not be keyed) — throws one `InputValidationError` naming every such
 * row. Other bad rows are answered like the API answers them: a failed result with a row error
 * (`retryable: false`) and not sent. A `partnerInvestorId` seen earlier in the same call fails with
 * `duplicate_in_request` (the first occurrence alone is sent), across chunks too.
 */
export function checkInvestorRows(investors: unknown): CheckedInvestorRows {
  if (!Array.isArray(investors)) {
    throw new InputValidationError('investors.create input', [
      { path: 'investors', message: 'Expected an array of investor rows' },
    ]);
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
  if (malformed.length > 0) throw new InputValidationError('investors.create input', malformed);

  const rows = investors as (Record<string, unknown> & { partnerInvestorId: string })[];
  const inputs = rows.slice() as InvestorInput[];
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
    const parsed = InvestorInput.safeParse(row);
    if (parsed.success) inputs[index] = parsed.data;
    else prefilled[index] = failed(id, investorRowError(parsed.error.issues));
  });
  return { inputs, prefilled };
}

function failed(partnerInvestorId: string, error: InvestorRowFailure['error']): InvestorRowFailure {
  return { partnerInvestorId, status: 'failed', error };
}
