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

/** 32-bit FNV-1a of a string: tells a repeat of the same person from another one under the same id. */
function digest(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const TWO_32 = 2 ** 32;

/**
 * The checks a row's own schema cannot make, in file order: a footer or total row, a future date of birth,
 * an e-mail domain with no dot, a repeated investor id (an error when the details differ), a repeated
 * e-mail, and empty cells in optional columns the file has (warnings: the spec does not say which fields
 * the service requires). Ids and e-mails seen are held for the whole file: one map entry each.
 */
export class RowChecks {
  readonly #columns: ColumnMap;
  readonly #optional: string[];
  readonly #investors: boolean;
  readonly #today: string;
  // id → line × 2^32 + digest of the row's person: one number per id.
  readonly #ids = new Map<string, number>();
  readonly #emails = new Map<string, number>();

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
    if (typeof id === 'string' && id !== '') {
      const person = digest(JSON.stringify([email, row['firstName'], row['lastName'], birth]));
      const seen = this.#ids.get(id);
      if (seen === undefined) this.#ids.set(id, line * TWO_32 + person);
      else if (seen % TWO_32 !== person) {
        problems.push({
          column: column('partnerInvestorId'),
          reason: `'${id}' is also the id of line ${Math.floor(seen / TWO_32)}, with other details: one id names one person`,
        });
      } else {
        warnings.push({
          column: column('partnerInvestorId'),
          reason: `'${id}' repeats line ${Math.floor(seen / TWO_32)} (sent once: no second person)`,
          code: 'repeated_person',
        });
      }
    }
    if (typeof email === 'string' && email !== '') {
      const key = email.toLowerCase();
      const seen = this.#emails.get(key);
      if (seen === undefined) this.#emails.set(key, line);
      else if (typeof id === 'string' && Math.floor((this.#ids.get(id) ?? 0) / TWO_32) === line) {
        warnings.push({
          column: column('email'),
          reason: `'${email}' is also on line ${seen}, under another id: the same person twice?`,
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
