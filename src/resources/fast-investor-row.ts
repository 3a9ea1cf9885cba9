import { z } from 'zod';
import { COUNTRY_CODES } from '../schemas/country-codes.js';
import type { InvestorInput } from '../schemas/investors.js';

// The same patterns `InvestorInput` checks with (`z.email()` and `z.iso.date()` defaults); a test pins them
// to the schema so the two cannot drift apart.
const EMAIL = z.regexes.email;
const DATE = z.regexes.date;
const COUNTRY = /^[A-Z]{2}$/;
const FIELD_COUNT = 6;

// Trimmed as `z.string().trim().min(1).max(100)` would, or `undefined` when that would fail.
function name(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length >= 1 && trimmed.length <= 100 ? trimmed : undefined;
}

/**
 * The common case of `InvestorInput.safeParse(row)` without zod: a plain object with exactly the six
 * fields, all valid. Returns the same normalised row zod would (fields in schema order, names trimmed), or
 * `undefined` when the row is anything else — then zod decides, and describes what is wrong. It never
 * accepts a row zod refuses; zod per row cost ~2 µs of the SDK's client CPU on a 25,000-row import.
 */
export function fastInvestorRow(row: Record<string, unknown>): InvestorInput | undefined {
  // zod's strict check walks `for…in`, inherited keys included: anything but a plain (or null-prototype)
  // object goes to zod.
  const prototype: unknown = Object.getPrototypeOf(row);
  if ((prototype !== Object.prototype && prototype !== null) || Object.keys(row).length !== FIELD_COUNT) {
    return undefined;
  }
  const { partnerInvestorId, email, dateOfBirth, countryOfResidence } = row;
  const firstName = name(row['firstName']);
  const lastName = name(row['lastName']);
  if (
    firstName === undefined ||
    lastName === undefined ||
    typeof partnerInvestorId !== 'string' ||
    partnerInvestorId.length < 1 ||
    partnerInvestorId.length > 128 ||
    typeof email !== 'string' ||
    email.length > 254 ||
    !EMAIL.test(email) ||
    typeof dateOfBirth !== 'string' ||
    !DATE.test(dateOfBirth) ||
    typeof countryOfResidence !== 'string' ||
    !COUNTRY.test(countryOfResidence) ||
    !COUNTRY_CODES.has(countryOfResidence)
  ) {
    return undefined;
  }
  return { partnerInvestorId, email, firstName, lastName, dateOfBirth, countryOfResidence };
}
