import type { InvestorInput } from '../schemas/investors.js';

// The patterns `InvestorInput` checks with (`EMAIL_PATTERN`, `z.iso.date()`'s own and the country code's),
// written to run faster than the patterns (dates and country codes as loops over char codes, about half the
// time). Tests hold each one to its pattern, and the whole row to zod's verdicts.

const optionalString = (value: unknown) => value === undefined || value === null || typeof value === 'string';

/**
 * The common case of `InvestorInput.safeParse(row)` without zod: a plain object whose stated fields are all
 * valid where present. Returns the row itself (zod would return an equal copy; unknown fields are kept either
 * way), or `undefined` when anything is off — then zod decides, and describes what is wrong. It never
 * accepts a row zod refuses; zod per row cost ~2 µs of the SDK's client CPU on a 25,000-row import.
 */
export function fastInvestorRow(row: Record<string, unknown>): InvestorInput | undefined {
  // zod walks own keys only; anything but a plain (or null-prototype) object goes to zod.
  const prototype: unknown = Object.getPrototypeOf(row);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const { partnerInvestorId, email, firstName, lastName, dateOfBirth, countryOfResidence } = row;
  if (
    typeof partnerInvestorId !== 'string' ||
    partnerInvestorId.length < 1 ||
    !optionalString(firstName) ||
    !optionalString(lastName) ||
    !(email === undefined || email === null || (typeof email === 'string' && isEmail(email))) ||
    !(
      dateOfBirth === undefined ||
      dateOfBirth === null ||
      (typeof dateOfBirth === 'string' && isCalendarDate(dateOfBirth))
    ) ||
    !(
      countryOfResidence === undefined ||
      countryOfResidence === null ||
      (typeof countryOfResidence === 'string' && isCountryCode(countryOfResidence))
    )
  ) {
    return undefined;
  }
  return row as unknown as InvestorInput;
}

const WHITE_SPACE = /\s/;

/**
 * `EMAIL_PATTERN` (`/^[^\s@]+@[^\s@]+$/`): one `@`, neither first nor last, and no white space. Two
 * `indexOf` and a one-class scan: faster than the anchored pattern, and than a loop over char codes.
 */
export function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  return at > 0 && at < value.length - 1 && value.indexOf('@', at + 1) === -1 && !WHITE_SPACE.test(value);
}

/** `z.iso.date()`'s pattern: `YYYY-MM-DD`, a real day of a real month, 29 February in Gregorian leap years. */
export function isCalendarDate(value: string): boolean {
  if (value.length !== 10 || value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  if (month === 2) return day <= (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28);
  return day <= (month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
}

// The number written by `length` ASCII digits from `start`, or -1 if any is not a digit.
function digitsAt(value: string, start: number, length: number): number {
  let number = 0;
  for (let index = start; index < start + length; index += 1) {
    const digit = value.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    number = number * 10 + digit;
  }
  return number;
}

/** `/^[A-Za-z]{2}$/`. */
export function isCountryCode(value: string): boolean {
  return value.length === 2 && isAsciiLetter(value.charCodeAt(0)) && isAsciiLetter(value.charCodeAt(1));
}

function isAsciiLetter(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}
