import { stableJson } from '../core/request/idempotency.js';
import type { InvestorInput } from '../schemas/investors.js';

const SIX_FIELDS = 6;

/**
 * `stableJson({ investors: rows })`, the body of one `investors.create` chunk, for checked investor rows.
 * When every row is the usual one (the six stated fields, all strings), one `JSON.stringify` of copies whose
 * keys are in sorted order, the same text as `stableJson` at a fraction of its cost (V8's fast path for
 * objects of one shape), written whole (no second copy to put the rows in the body); otherwise row by row,
 * the usual ones the same way and any other through the generic writer. The chunk's idempotency key is
 * hashed from the rows' part of this text.
 */
export function investorsBodyJson(rows: readonly InvestorInput[]): string {
  // `isUsualRow` counts keys with `for…in`, which also visits enumerable keys inherited from
  // `Object.prototype`: with any there (a polluted prototype), every row takes the generic writer.
  const usual = plainPrototypeIsClean() ? isUsualRow : () => false;
  if (rows.every(usual)) return JSON.stringify({ investors: rows.map(sortedCopy) });
  let json = '{"investors":[';
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as InvestorInput;
    if (index > 0) json += ',';
    json += usual(row) ? JSON.stringify(sortedCopy(row)) : stableJson(row);
  }
  return `${json}]}`;
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

/**
 * A plain (or null-prototype) object with exactly the six stated fields, all strings. Its keys are counted
 * with `for…in` rather than `Object.keys(row).length`: the same count for such an object once
 * `Object.prototype` is known clean, without an array per row (about 100 bytes a row on a large import).
 */
function isUsualRow(row: InvestorInput): boolean {
  const prototype: unknown = Object.getPrototypeOf(row);
  if (prototype !== Object.prototype && prototype !== null) return false;
  let keys = 0;
  for (const _ in row) keys += 1;
  return (
    keys === SIX_FIELDS &&
    typeof row.partnerInvestorId === 'string' &&
    typeof row.email === 'string' &&
    typeof row.firstName === 'string' &&
    typeof row.lastName === 'string' &&
    typeof row.dateOfBirth === 'string' &&
    typeof row.countryOfResidence === 'string'
  );
}

function plainPrototypeIsClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}
