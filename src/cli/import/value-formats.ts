import { UsageError } from '../usage-error.js';
import { type DecimalMark, decimalMarkShown, isAmbiguous, readAmount } from './amounts.js';
import type { CountryLookup } from './country-names.js';
import { datePartsAs, dateReadings, isoDate } from './dates.js';
import { headerKey } from './header-names.js';

export { type CountryLookup, loadCountryLookup } from './country-names.js';

/** The date layouts `--date-format` takes; `YYYY-MM-DD` (the API's own) converts nothing. */
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** What `--date-format` and `--decimal-comma` said; without them, each column's cells show their format. */
export interface ValueFormats {
  dateFormat?: DateFormat | undefined;
  decimalComma: boolean;
}

/** A format one cell of a column showed by itself, which then reads the column's ambiguous cells. */
export interface ColumnEvidence<T> {
  value: T;
  /** The cell that showed it, and its line. */
  example: string;
  line: number;
}

/** What the date and amount columns showed of their format (read from the file before its rows). */
export interface ColumnFormats {
  /** Day or month first, as the first slashed date with a day over 12 showed. */
  dateOrder?: ColumnEvidence<'DD/MM/YYYY' | 'MM/DD/YYYY'> | undefined;
  /** The decimal mark, as the first amount that reads only one way showed. */
  decimalMark?: ColumnEvidence<DecimalMark> | undefined;
}

/** What a field holds, for converting its cells and explaining a bad one. */
export type ValueKind = 'date' | 'country' | 'amount' | 'email' | 'shareClass';

/** The fields whose cells are converted or explained by kind (field names are unique across kinds). */
export const VALUE_KINDS: Readonly<Record<string, ValueKind>> = {
  dateOfBirth: 'date',
  countryOfResidence: 'country',
  email: 'email',
  'lumpSum.value': 'amount',
  shareClassSlug: 'shareClass',
};

/** A share class of the SPV being imported into, as its SPV request lists it. */
export interface ShareClass {
  slug: string;
  name?: string | null | undefined;
}

/** Everything a conversion may use: the flags, and what was looked up for this import. */
export interface ConvertContext extends ValueFormats, ColumnFormats {
  /** Loaded when the file has a country column. */
  countryCode?: CountryLookup | undefined;
  /** Known when the SPV was named by its request (`spvr_…`): names resolve to slugs. */
  shareClasses?: readonly ShareClass[] | undefined;
}

/** `--date-format`'s value, checked; `undefined` (not given): each date column shows its format. */
export function dateFormatOption(value: string | undefined): DateFormat | undefined {
  if (value === undefined) return undefined;
  const format = DATE_FORMATS.find((candidate) => candidate === value.toUpperCase());
  if (format === undefined) {
    throw new UsageError(`--date-format '${value}': expected one of ${DATE_FORMATS.join(', ')}`);
  }
  return format;
}

/** A cell converted to what the API takes, or why it cannot be, in words that say what would fix it. */
export type Converted = { value: string } | { problem: string };

/** `"value"` as messages quote it. */
export function quoted(value: string): string {
  return `"${value}"`;
}

/**
 * The cell as the API takes it: dates and amounts read as their column shows (or as `--date-format` and
 * `--decimal-comma` say), country and share class names made codes and slugs; the schema judges the
 * result. `row` is the rest of the row (an amount's currency symbol must agree with its currency). A
 * problem's words depend only on the value and the file, never on the row's place, so equal ones group.
 */
export function convertValue(
  kind: ValueKind,
  value: string,
  context: ConvertContext,
  row?: Record<string, unknown>,
): Converted {
  switch (kind) {
    case 'date':
      return convertDate(value, context);
    case 'amount':
      return convertAmount(value, context, rowCurrency(row));
    case 'shareClass':
      return convertShareClass(value, context.shareClasses);
    case 'country': {
      const code = context.countryCode?.(value);
      if (code !== undefined) return { value: code };
      return {
        problem: `country ${quoted(value)} not recognised (names in English, French, German, Spanish, Italian or Dutch, or ISO codes); write its two-letter ISO code (DE)`,
      };
    }
    case 'email':
      return { value };
  }
}

function rowCurrency(row: Record<string, unknown> | undefined): string | undefined {
  const lumpSum = row?.['lumpSum'];
  const currency =
    typeof lumpSum === 'object' && lumpSum !== null
      ? (lumpSum as Record<string, unknown>)['currency']
      : undefined;
  return typeof currency === 'string' ? currency.toUpperCase() : undefined;
}

function convertShareClass(value: string, classes: readonly ShareClass[] | undefined): Converted {
  if (classes === undefined) return { value };
  const key = headerKey(value);
  const found =
    classes.find((shareClass) => shareClass.slug === value) ??
    classes.find(
      (shareClass) => headerKey(shareClass.name ?? '') === key || headerKey(shareClass.slug) === key,
    );
  if (found !== undefined) return { value: found.slug };
  return {
    problem: `${quoted(value)} is not a share class of this SPV; use one of ${describeShareClasses(classes)}`,
  };
}

/** `class-a ("Class A"), class-b ("Class B")`: the slugs a row may name, with their names. */
export function describeShareClasses(classes: readonly ShareClass[]): string {
  if (classes.length === 0) return '(the SPV lists none)';
  return classes
    .map(({ slug, name }) => (name == null || name === slug ? slug : `${slug} (${quoted(name)})`))
    .join(', ');
}

const ORDER_WORDS = { 'DD/MM/YYYY': 'the day first', 'MM/DD/YYYY': 'the month first' } as const;

function convertDate(value: string, context: ConvertContext): Converted {
  const forced = context.dateFormat;
  if (forced !== undefined) {
    const parts = datePartsAs(value, forced);
    if (parts !== undefined) return { value: isoDate(parts) };
    return { problem: `${quoted(value)} is not ${forced} (--date-format); write it as ${forced}` };
  }
  const readings = dateReadings(value);
  const formats = Object.keys(readings) as DateFormat[];
  const order = context.dateOrder;
  const [only] = formats;
  if (only === undefined) {
    return {
      problem: `${quoted(value)} is not a date; write it as YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY or DD.MM.YYYY`,
    };
  }
  if (formats.length === 1) {
    if (order !== undefined && (only === 'DD/MM/YYYY' || only === 'MM/DD/YYYY') && only !== order.value) {
      return {
        problem: `${quoted(value)} has ${ORDER_WORDS[only]}, but this column writes ${ORDER_WORDS[order.value]} (${quoted(order.example)}, line ${order.line}); check it, or add --date-format`,
      };
    }
    return { value: readings[only] as string };
  }
  if (new Set(Object.values(readings)).size === 1) return { value: readings[only] as string };
  if (order !== undefined) return { value: readings[order.value] as string };
  return {
    problem: `${quoted(value)} could have the day or the month first, and no date in this column has a day over 12 to tell; add --date-format DD/MM/YYYY or --date-format MM/DD/YYYY`,
  };
}

const MARK_WORDS = { point: 'a decimal point', comma: 'a decimal comma' } as const;

function convertAmount(value: string, context: ConvertContext, currency: string | undefined): Converted {
  const cell = readAmount(value);
  if (cell === undefined) {
    return { problem: `${quoted(value)} is not an amount; write it like 25000.00, 25,000.00 or 25.000,00` };
  }
  if (cell.symbol !== undefined && currency !== undefined && !cell.currencies?.includes(currency)) {
    return {
      problem: `${quoted(value)} is written in ${cell.symbol}, which is not ${currency}, the row's currency`,
    };
  }
  if (context.decimalComma) {
    if (cell.comma !== undefined) return { value: cell.comma };
    return {
      problem: `${quoted(value)} is not an amount like 25.000,00 or 25 000,00 (--decimal-comma); write it so, or drop --decimal-comma`,
    };
  }
  const shown = decimalMarkShown(cell);
  const column = context.decimalMark;
  if (shown !== undefined && column !== undefined && shown !== column.value) {
    return {
      problem: `${quoted(value)} has ${MARK_WORDS[shown]}, but this column's amounts have ${MARK_WORDS[column.value]} (${quoted(column.example)}, line ${column.line}); check it`,
    };
  }
  if (!isAmbiguous(cell)) return { value: (cell.point ?? cell.comma) as string };
  if (column !== undefined) return { value: cell[column.value] as string };
  return {
    problem: `${quoted(value)} could be ${cell.point} or ${cell.comma}, and no amount in this column shows which separator marks decimals; add --decimal-comma if the comma does, or write it without thousands separators`,
  };
}

/** A schema issue on a field, said with the value that caused it and what would fix it. */
export function explainIssue(
  kind: ValueKind | undefined,
  original: string | undefined,
  converted: string | undefined,
  message: string,
): string {
  if (original === undefined)
    return /received undefined/.test(message) ? 'empty, and required' : `empty; ${message}`;
  if (kind === 'date') {
    const shown = original === converted ? '' : ` (${converted})`;
    return `${quoted(original)}${shown} is not a real date; check the day and month`;
  }
  if (kind === 'email') {
    return `${quoted(original)} is not an e-mail address; write it as name@domain, with no spaces inside`;
  }
  return `${quoted(original)}: ${message}`;
}
