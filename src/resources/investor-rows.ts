import { InputValidationError, type ValidationIssue } from '../core/errors/errors.js';
import { InvestorInput, type InvestorRowFailure, type InvestorRowResult } from '../schemas/investors.js';
import { investorRowError } from './investor-row-error.js';

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
 * Checks an array of investor rows call-wide before anything is sent. A malformed call — a row that is not
 * an object or has no `partnerInvestorId` (a result could not be keyed) — throws one
 * `InputValidationError` naming every such row. Anything else but an array or an `AsyncIterable` throws too.
 */
export function checkInvestorRows(investors: unknown): void {
  if (isRecord(investors) && Symbol.asyncIterator in investors) return;
  if (!Array.isArray(investors)) {
    throw new InputValidationError('investors.create input', [
      { path: 'investors', message: 'Expected an array or an AsyncIterable of investor rows' },
    ]);
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
  if (malformed.length > 0) throw new InputValidationError('investors.create input', malformed);
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
