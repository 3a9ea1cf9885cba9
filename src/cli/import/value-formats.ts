import { UsageError } from '../usage-error.js';
import type { CountryLookup } from './country-names.js';
import { headerKey } from './header-names.js';

export { type CountryLookup, loadCountryLookup } from './country-names.js';

/** The date layouts `--date-format` takes; `YYYY-MM-DD` (the API's own) converts nothing. */
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** How the file writes values: what `--date-format` and `--decimal-comma` said (nothing is guessed). */
export interface ValueFormats {
  dateFormat: DateFormat;
  decimalComma: boolean;
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
export interface ConvertContext extends ValueFormats {
  /** Loaded when the file has a country column. */
  countryCode?: CountryLookup | undefined;
  /** Known when the SPV was named by its request (`spvr_…`): names resolve to slugs. */
  shareClasses?: readonly ShareClass[] | undefined;
}

/** `--date-format`'s value, checked. */
export function dateFormatOption(value: string | undefined): DateFormat {
  if (value === undefined) return 'YYYY-MM-DD';
  const format = DATE_FORMATS.find((candidate) => candidate === value.toUpperCase());
  if (format === undefined) {
    throw new UsageError(`--date-format '${value}': expected one of ${DATE_FORMATS.join(', ')}`);
  }
  return format;
}

/** A cell converted to what the API takes, or why it cannot be, in words that say what would fix it. */
export type Converted = { value: string } | { problem: string };

const DATE_SHAPES: Record<Exclude<DateFormat, 'YYYY-MM-DD'>, RegExp> = {
  'DD/MM/YYYY': /^(?<day>\d{1,2})\/(?<month>\d{1,2})\/(?<year>\d{4})$/,
  'MM/DD/YYYY': /^(?<month>\d{1,2})\/(?<day>\d{1,2})\/(?<year>\d{4})$/,
  'DD.MM.YYYY': /^(?<day>\d{1,2})\.(?<month>\d{1,2})\.(?<year>\d{4})$/,
};

// Digits in groups of three split by one kind of separator (dot, space, no-break spaces), then `,decimals`.
const COMMA_AMOUNT = /^\d{1,3}(?:([. \u00a0\u202f])\d{3}(?:\1\d{3})*)?(?:,\d+)?$|^\d+(?:,\d+)?$/;
const SEPARATORS = /[. \u00a0\u202f]/g;

/** `"value"` as messages quote it. */
export function quoted(value: string): string {
  return `"${value}"`;
}

/**
 * The cell as the API takes it: dates reshaped by `--date-format`, amounts by `--decimal-comma`, country
 * names made codes. Without a flag only the safe conversions happen (country names); the schema judges
 * the result.
 */
export function convertValue(kind: ValueKind, value: string, context: ConvertContext): Converted {
  switch (kind) {
    case 'date':
      return convertDate(value, context.dateFormat);
    case 'amount':
      return convertAmount(value, context.decimalComma);
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

function convertDate(value: string, format: DateFormat): Converted {
  if (format === 'YYYY-MM-DD') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { value };
    const hint = likelyDateFormat(value);
    return {
      problem: `${quoted(value)} is not YYYY-MM-DD; ${hint === undefined ? 'write it as YYYY-MM-DD' : `add --date-format ${hint}`}`,
    };
  }
  const parts = DATE_SHAPES[format].exec(value)?.groups;
  if (parts === undefined) {
    return { problem: `${quoted(value)} is not ${format} (--date-format); write it as ${format}` };
  }
  const pad = (text: string | undefined) => (text ?? '').padStart(2, '0');
  return { value: `${parts['year']}-${pad(parts['month'])}-${pad(parts['day'])}` };
}

/** The `--date-format` a value is written in, when its shape says (`31/12/1980` is day first). */
function likelyDateFormat(value: string): string | undefined {
  if (/^\d{1,2}\.\d{1,2}\.\d{4}$/.test(value)) return 'DD.MM.YYYY';
  const slashed = /^(\d{1,2})\/(\d{1,2})\/\d{4}$/.exec(value);
  if (slashed === null) return undefined;
  if (Number(slashed[1]) > 12) return 'DD/MM/YYYY';
  if (Number(slashed[2]) > 12) return 'MM/DD/YYYY';
  return 'DD/MM/YYYY (or MM/DD/YYYY, as the file writes dates)';
}

function convertAmount(value: string, decimalComma: boolean): Converted {
  if (!decimalComma) {
    if (/^\d+(\.\d+)?$/.test(value)) return { value };
    const fix = /^[\d. \u00a0\u202f]+,\d+$/.test(value)
      ? 'add --decimal-comma'
      : /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(value)
        ? 'remove the thousands separators'
        : 'write digits with an optional decimal point';
    return { problem: `${quoted(value)} is not an amount like 25000.00; ${fix}` };
  }
  if (COMMA_AMOUNT.test(value)) return { value: value.replace(SEPARATORS, '').replace(',', '.') };
  return {
    problem: `${quoted(value)} is not an amount like 25.000,00 or 25 000,00 (--decimal-comma); write it so, or drop --decimal-comma`,
  };
}

/** A schema issue on a field, said with the value that caused it and what would fix it. */
export function explainIssue(
  kind: ValueKind | undefined,
  original: string | undefined,
  converted: string | undefined,
  message: string,
): string {
  if (original === undefined) return `empty; ${message}`;
  if (kind === 'date') {
    const shown = original === converted ? '' : ` (${converted})`;
    return `${quoted(original)}${shown} is not a real date; check the day and month`;
  }
  if (kind === 'email') {
    return `${quoted(original)} is not an e-mail address; write it as name@domain, with no spaces inside`;
  }
  return `${quoted(original)}: ${message}`;
}
