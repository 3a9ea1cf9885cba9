import { z } from 'zod';
import { COUNTRY_CODES } from './country-codes.js';

const decimalPattern = /^(0|[1-9]\d{0,17})(\.\d{1,8})?$/;

/**
 * A non-negative decimal amount written as a string, as the API carries every money value
 * (`"250000"`, `"1.5"`); never a JSON number, so no precision is lost.
 */
export const DecimalString = z
  .string()
  .regex(decimalPattern, 'Expected a decimal string such as "1000" or "1000.50"')
  .meta({ description: 'Non-negative decimal number written as a string.', examples: ['250000.00'] });

/** A {@link DecimalString} greater than zero: an amount someone actually pays. */
// Each refinement passes values the format check already rejects, so one bad value yields one issue.
export const PositiveDecimalString = DecimalString.refine(
  (value) => !decimalPattern.test(value) || /[1-9]/.test(value),
  {
    message: 'Expected an amount greater than zero',
  },
);

/** A percentage between 0 and 100 written as a decimal string (`"2"`, `"20.5"`). */
export const PercentString = DecimalString.refine(
  (value) => !decimalPattern.test(value) || Number(value) <= 100,
  {
    message: 'Expected a percentage between 0 and 100',
  },
);

let knownCurrencies: Set<string> | undefined;
function isKnownCurrency(code: string): boolean {
  knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return knownCurrencies.has(code);
}

/** An ISO 4217 currency code in upper case (`EUR`, `USD`), checked against the runtime's ICU data. */
export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'Expected a three-letter upper-case ISO 4217 currency code')
  .refine((code) => !/^[A-Z]{3}$/.test(code) || isKnownCurrency(code), {
    message: 'Unknown ISO 4217 currency code',
  })
  .meta({ examples: ['EUR'] });

/** An ISO 3166-1 alpha-2 country code in upper case (`DE`, `US`). */
export const CountryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'Expected a two-letter upper-case ISO 3166-1 country code')
  .refine((code) => !/^[A-Z]{2}$/.test(code) || COUNTRY_CODES.has(code), {
    message: 'Unknown ISO 3166-1 alpha-2 country code',
  })
  .meta({ examples: ['DE'] });

/** A real calendar date `YYYY-MM-DD` (leap years checked). */
export const CalendarDate = z.iso.date();

/** An ISO 8601 date-time as the API sends it (UTC `Z`; offsets accepted for forward compatibility). */
export const Timestamp = z.iso.datetime({ offset: true });

/** Identifiers the API puts in paths: slugs and ids of 1-64 URL-safe characters. */
export const Slug = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'Expected 1-64 letters, digits, "-" or "_"');
