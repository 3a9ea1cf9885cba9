import { stableJson } from '../core/request/idempotency.js';
import type { InvestorInput } from '../schemas/investors.js';

const SIX_FIELDS = 6;

/** The six stated fields of an investor row, in sorted key order. */
interface SortedRow {
  countryOfResidence: string;
  dateOfBirth: string;
  email: string;
  firstName: string;
  lastName: string;
  partnerInvestorId: string;
}

/**
 * A writer of `stableJson({ investors: rows })` for the chunks of one call. When every row of a chunk is the
 * usual one (the six stated fields, all strings), one `JSON.stringify` of objects whose keys are in sorted
 * order, the same text as `stableJson` at a fraction of its cost (V8's fast path for objects of one shape),
 * written whole (no second copy to put the rows in the body); otherwise row by row, the usual ones the same
 * way and any other through the generic writer. The chunk's idempotency key is hashed from the rows' part
 * of this text.
 *
 * The sorted-key objects are made once per writer and refilled for each chunk, not made per row (about 80
 * bytes a row on a large import): a chunk is written in one synchronous `JSON.stringify`, and they hold only
 * strings, so no code of anyone's runs while they are in use.
 */
export function investorsBodyWriter(): InvestorsBodyWriter {
  return new InvestorsBodyWriter();
}

// A class: `write` is the same function for every call (see `BulkRunSpec.bodyWriter`).
class InvestorsBodyWriter {
  readonly #sorted: SortedRow[] = [];
  readonly #body = { investors: this.#sorted };

  write(rows: readonly InvestorInput[]): string {
    // `isUsualRow` counts keys with `for…in`, which also visits enumerable keys inherited from
    // `Object.prototype`: with any there (a polluted prototype), every row takes the generic writer.
    const usual = plainPrototypeIsClean() ? isUsualRow : isNever;
    if (rows.every(usual)) {
      fill(this.#sorted, rows as readonly UsualRow[]);
      return JSON.stringify(this.#body);
    }
    let json = '{"investors":[';
    for (let index = 0; index < rows.length; index += 1) {
      const row = rows[index] as InvestorInput;
      if (index > 0) json += ',';
      json += usual(row) ? JSON.stringify(sortedCopy(row as UsualRow)) : stableJson(row);
    }
    return `${json}]}`;
  }
}

function isNever(): boolean {
  return false;
}

type UsualRow = InvestorInput & SortedRow;

// `sorted` made to hold `rows`' fields, one object per row, reusing the objects it has.
function fill(sorted: SortedRow[], rows: readonly UsualRow[]): void {
  if (sorted.length > rows.length) sorted.length = rows.length;
  for (let index = 0; index < rows.length; index += 1) {
    sorted[index] = sortedCopy(rows[index] as UsualRow, sorted[index]);
  }
}

// The row's six fields written into `into` (a new object when none is given) in sorted key order:
// `JSON.stringify` writes keys in insertion order.
function sortedCopy(row: UsualRow, into = {} as SortedRow): SortedRow {
  into.countryOfResidence = row.countryOfResidence;
  into.dateOfBirth = row.dateOfBirth;
  into.email = row.email;
  into.firstName = row.firstName;
  into.lastName = row.lastName;
  into.partnerInvestorId = row.partnerInvestorId;
  return into;
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
