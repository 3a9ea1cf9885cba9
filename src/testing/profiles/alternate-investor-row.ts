import { COUNTRY_CODES } from '../wire/country-codes.js';
import { InvestorInput } from '../wire-alternate/investors.js';
import { isMissing } from '../zod-issues.js';
import type { InvestorRowCheck } from './fake-profile.js';

const codeFor: Record<string, string> = {
  email: 'invalid_email',
  dateOfBirth: 'invalid_date_of_birth',
  countryOfResidence: 'invalid_country',
};

const fail = (code: string, message: string, field: string): InvestorRowCheck => ({
  ok: false,
  error: { code, message, retryable: false, field },
});

/**
 * The alternate profile's investor row: `partnerInvestorId` and `email` required, the other fields optional
 * (absent or `null`) and checked when given, 255 characters at most (the e-mail as the SDK checks it), a birth date in the past (no lower
 * bound), a country code in either case (stored upper case). Codes are the canonical ones; the presenter
 * renames them.
 */
export function alternateInvestorRow(row: Record<string, unknown>, today: string): InvestorRowCheck {
  const parsed = InvestorInput.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'partnerInvestorId');
    if (isMissing(issue, row) || row[field] === null)
      return fail('missing_field', `${field} is required`, field);
    return fail(codeFor[field] ?? 'invalid_field', `${field}: ${issue.message}`, field);
  }
  const { email, firstName, lastName, dateOfBirth, countryOfResidence } = parsed.data;
  if (dateOfBirth != null && dateOfBirth >= today) {
    return fail('invalid_date_of_birth', 'dateOfBirth must be in the past', 'dateOfBirth');
  }
  const country = countryOfResidence?.toUpperCase();
  if (country != null && !COUNTRY_CODES.has(country)) {
    return fail(
      'invalid_country',
      'countryOfResidence: Unknown ISO 3166-1 alpha-2 country code',
      'countryOfResidence',
    );
  }
  return {
    ok: true,
    person: {
      email,
      ...(firstName == null ? {} : { firstName }),
      ...(lastName == null ? {} : { lastName }),
      ...(dateOfBirth == null ? {} : { dateOfBirth }),
      ...(country == null ? {} : { countryOfResidence: country }),
    },
  };
}
