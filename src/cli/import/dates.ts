import type { DateFormat } from './value-formats.js';

/** A date cell's day, month and year as written, or `undefined` for a shape no format takes. */
interface DateParts {
  day: string;
  month: string;
  year: string;
}

const SHAPES: Record<DateFormat, RegExp> = {
  'YYYY-MM-DD': /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})$/,
  'DD/MM/YYYY': /^(?<day>\d{1,2})\/(?<month>\d{1,2})\/(?<year>\d{4})$/,
  'MM/DD/YYYY': /^(?<month>\d{1,2})\/(?<day>\d{1,2})\/(?<year>\d{4})$/,
  'DD.MM.YYYY': /^(?<day>\d{1,2})\.(?<month>\d{1,2})\.(?<year>\d{4})$/,
};

/** `value` read as `format`, or `undefined` if it is not written so. */
export function datePartsAs(value: string, format: DateFormat): DateParts | undefined {
  return SHAPES[format].exec(value)?.groups as DateParts | undefined;
}

/** `YYYY-MM-DD` from parts (the schema then judges whether it is a real date). */
export function isoDate({ day, month, year }: DateParts): string {
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/**
 * How a cell reads in each format its shape fits, as `YYYY-MM-DD`: `1980-12-31` and `31.12.1980` (dots
 * mean day first) one way; `31/12/1980` only day first and `12/31/1980` only month first (no month 31);
 * `01/02/1980` both ways, differently; `05/05/1980` both ways, the same. Empty for no date shape.
 */
export function dateReadings(value: string): Partial<Record<DateFormat, string>> {
  const readings: Partial<Record<DateFormat, string>> = {};
  for (const format of Object.keys(SHAPES) as DateFormat[]) {
    const parts = datePartsAs(value, format);
    if (parts !== undefined && Number(parts.month) <= 12) readings[format] = isoDate(parts);
  }
  return readings;
}
