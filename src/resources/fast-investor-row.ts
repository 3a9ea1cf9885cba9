import { z } from 'zod';
import { EMAIL_PATTERN as EMAIL, type InvestorInput } from '../schemas/investors.js';

// The patterns `InvestorInput` checks with (`EMAIL_PATTERN`, and `z.iso.date()`'s own); a property test
// holds the fast path to zod's verdicts.
const DATE = z.regexes.date;
const COUNTRY = /^[A-Za-z]{2}$/;

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
    !(email === undefined || email === null || (typeof email === 'string' && EMAIL.test(email))) ||
    !(
      dateOfBirth === undefined ||
      dateOfBirth === null ||
      (typeof dateOfBirth === 'string' && DATE.test(dateOfBirth))
    ) ||
    !(
      countryOfResidence === undefined ||
      countryOfResidence === null ||
      (typeof countryOfResidence === 'string' && COUNTRY.test(countryOfResidence))
    )
  ) {
    return undefined;
  }
  return row as unknown as InvestorInput;
}
