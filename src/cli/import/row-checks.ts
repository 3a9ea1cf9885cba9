import type { ColumnMap } from './columns.js';
import { fieldPaths } from './columns.js';
import type { ImportKind } from './import-kind.js';

/** One problem of a row, as `--check` prints it. */
export interface RowProblem {
  /** The column at fault, as the header names it (`''` for the row as a whole). */
  column: string;
  reason: string;
  /** What kind of problem, where something acts on it (`repeated_person`). */
  code?: string;
}

// What a spreadsheet's footer row starts with, in the languages the headers are read in.
const TOTAL_WORDS =
  /^(?:grand )?(?:totals?|sum|subtotal|gesamt(?:summe)?|summe|somme|sous-total|suma|totale|totaal|som|insgesamt)\b/i;

// A domain with a dot in it and nothing after the last one but a top-level name: `name@gmail` has none.
const DOTTED_DOMAIN = /@[^@\s]+\.[^@.\s]+$/;

/**
 * A 64-bit hash of a string as two 32-bit halves (cyrb53's mixing, both halves kept): two different ids
 * share one with a chance of about n² / 2⁶⁵ (3 in 100 million for a million rows).
 */
function hash64(text: string, into: Uint32Array): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ char, 2654435761);
    h2 = Math.imul(h2 ^ char, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  into[0] = h1 >>> 0;
  into[1] = h2 >>> 0;
}

/**
 * Strings seen, by their 64-bit hash, each with two numbers (its line, and a digest): an open-addressing
 * table in typed arrays, outside the JavaScript heap, so a million ids cost 32 MB of memory the garbage
 * collector never walks (a Map of the strings themselves slowed the check of a million rows threefold).
 */
class SeenStrings {
  #slots = new Uint32Array(4 * 1024); // [hashHigh, hashLow, line, digest] per slot; line 0 = empty
  #count = 0;
  readonly #hash = new Uint32Array(2);

  /**
   * The line and digest stored for `text` by an earlier line, or undefined: stored now, or stored by this
   * same line (a later pass over the file meets each first occurrence again).
   */
  seen(text: string, line: number, digest: number): { line: number; digest: number } | undefined {
    hash64(text, this.#hash);
    const [high = 0, low = 0] = this.#hash;
    const found = this.#find(high, low);
    const slots = this.#slots;
    const first = slots[found + 2] ?? 0;
    if (first === line) return undefined;
    if (first !== 0) return { line: first, digest: slots[found + 3] ?? 0 };
    slots.set([high, low, line, digest], found);
    this.#count += 1;
    if (this.#count * 2 > slots.length / 4) this.#grow();
    return undefined;
  }

  #find(high: number, low: number): number {
    const size = this.#slots.length / 4;
    let slot = ((low ^ high) >>> 0) % size;
    for (;;) {
      const at = slot * 4;
      if (this.#slots[at + 2] === 0) return at;
      if (this.#slots[at] === high && this.#slots[at + 1] === low) return at;
      slot = (slot + 1) % size;
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    for (let at = 0; at < old.length; at += 4) {
      if (old[at + 2] === 0) continue;
      this.#slots.set(old.subarray(at, at + 4), this.#find(old[at] ?? 0, old[at + 1] ?? 0));
    }
  }
}

/** 32-bit FNV-1a of a string: tells a repeat of the same person from another one under the same id. */
function digest(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The checks a row's own schema cannot make, in file order: a footer or total row, a future date of birth,
 * an e-mail domain with no dot, a repeated investor id (an error when the details differ), a repeated
 * e-mail, and empty cells in optional columns the file has (warnings: the spec does not say which fields
 * the service requires). Ids and e-mails seen are held for the whole file, by hash (see SeenStrings).
 */
export class RowChecks {
  readonly #columns: ColumnMap;
  readonly #optional: string[];
  readonly #investors: boolean;
  readonly #today: string;
  readonly #ids = new SeenStrings();
  readonly #emails = new SeenStrings();

  constructor(kind: ImportKind, columns: ColumnMap, today = new Date().toISOString().slice(0, 10)) {
    this.#columns = columns;
    const paths = fieldPaths(kind.schema);
    this.#optional = columns.fields.filter(
      (field): field is string => field !== undefined && paths.get(field) === false,
    );
    this.#investors = kind.name === 'investors';
    this.#today = today;
  }

  /** A footer row ("Total", "Summe", …): the whole row is refused, nothing else is said of it. */
  footer(cells: readonly string[]): RowProblem | undefined {
    const first = cells.find((cell) => cell.trim() !== '')?.trim() ?? '';
    if (!TOTAL_WORDS.test(first)) return undefined;
    const id = this.#columns.has('partnerInvestorId')
      ? cells[this.#columns.fields.indexOf('partnerInvestorId')]?.trim()
      : undefined;
    if (id !== undefined && id !== '' && id !== first) return undefined;
    return { column: '', reason: `looks like a total row ('${first}'), not data: delete it from the file` };
  }

  /** Problems and warnings of a converted row (`row` as the schema will check it). */
  check(row: Record<string, unknown>, line: number, problems: RowProblem[], warnings: RowProblem[]): void {
    const column = (field: string) => this.#columns.columnOf(field);
    const birth = row['dateOfBirth'];
    if (typeof birth === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(birth) && birth > this.#today) {
      problems.push({ column: column('dateOfBirth'), reason: `'${birth}' is in the future` });
    }
    const email = row['email'];
    if (typeof email === 'string' && email.includes('@') && !DOTTED_DOMAIN.test(email)) {
      problems.push({
        column: column('email'),
        reason: `'${email}' has no dot in its domain (name@example.com); the address cannot receive mail`,
      });
    }
    for (const field of this.#optional) {
      if (valueAt(row, field) === '') warnings.push({ column: column(field), reason: 'empty' });
    }
    if (!this.#investors) return;
    const id = row['partnerInvestorId'];
    let newId = false;
    if (typeof id === 'string' && id !== '') {
      // An address in other case is the same address (the e-mail check and --id-from email agree).
      const address = typeof email === 'string' ? email.toLowerCase() : email;
      const person = digest(`${address}\u0000${row['firstName']}\u0000${row['lastName']}\u0000${birth}`);
      const seen = this.#ids.seen(id, line, person);
      newId = seen === undefined;
      if (seen !== undefined && seen.digest !== person) {
        problems.push({
          column: column('partnerInvestorId'),
          reason: `'${id}' is also the id of line ${seen.line}, with other details: one id names one person`,
        });
      } else if (seen !== undefined) {
        warnings.push({
          column: column('partnerInvestorId'),
          reason: `'${id}' repeats line ${seen.line} (sent once: no second person)`,
          code: 'repeated_person',
        });
      }
    }
    if (typeof email === 'string' && email !== '') {
      const seen = this.#emails.seen(email.toLowerCase(), line, 0);
      if (seen !== undefined && newId) {
        warnings.push({
          column: column('email'),
          reason: `'${email}' is also on line ${seen.line}, under another id: the same person twice?`,
        });
      }
    }
  }
}

function valueAt(row: Record<string, unknown>, field: string): string {
  let value: unknown = row;
  for (const key of field.split('.')) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return typeof value === 'string' ? value : '';
}
