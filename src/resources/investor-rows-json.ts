import { stableJson } from '../core/request/idempotency.js';
import type { InvestorInput } from '../schemas/investors.js';

const SIX_FIELDS = 6;

/**
 * `stableJson(rows)` for checked investor rows. When every row is the usual one (the six stated fields, all
 * strings), one `JSON.stringify` of copies whose keys are in sorted order, the same text as `stableJson`
 * at a fraction of its cost (V8's fast path for objects of one shape); otherwise row by row, the usual ones
 * the same way and any other through the generic writer. Chunk idempotency keys are hashed from it, and
 * the chunk's body is this same text.
 */
export function investorRowsJson(rows: readonly InvestorInput[]): string {
  if (rows.every(isUsualRow)) return JSON.stringify(rows.map(sortedCopy));
  let json = '[';
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as InvestorInput;
    if (index > 0) json += ',';
    json += isUsualRow(row) ? JSON.stringify(sortedCopy(row)) : stableJson(row);
  }
  return `${json}]`;
}

// Keys in sorted order: `JSON.stringify` writes them in insertion order.
function sortedCopy(row: InvestorInput) {
  return {
    countryOfResidence: row.countryOfResidence,
    dateOfBirth: row.dateOfBirth,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    partnerInvestorId: row.partnerInvestorId,
  };
}

function isUsualRow(row: InvestorInput): boolean {
  return (
    typeof row.email === 'string' &&
    typeof row.firstName === 'string' &&
    typeof row.lastName === 'string' &&
    typeof row.dateOfBirth === 'string' &&
    typeof row.countryOfResidence === 'string' &&
    Object.keys(row).length === SIX_FIELDS
  );
}
