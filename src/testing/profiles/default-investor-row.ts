import { z } from 'zod';
import { InvestorInput, type InvestorRowError } from '../wire/investors.js';
import { isMissing } from '../zod-issues.js';
import type { InvestorRowCheck } from './fake-profile.js';

// Rows are checked one by one so one bad row never fails the request; unknown row fields are ignored.
const Row = z.object(InvestorInput.shape);

const codeFor: Record<string, InvestorRowError['code']> = {
  email: 'invalid_email',
  dateOfBirth: 'invalid_date_of_birth',
  countryOfResidence: 'invalid_country',
};

/**
 * The default profile's investor row: every field required, with the bounds of `wire/investors.ts`, and a
 * birth date in the past and after 1900 (the fake's choice of a plausible bound).
 */
export function defaultInvestorRow(row: Record<string, unknown>, today: string): InvestorRowCheck {
  const parsed = Row.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'partnerInvestorId');
    if (isMissing(issue, row)) {
      return {
        ok: false,
        error: { code: 'missing_field', message: `${field} is required`, retryable: false, field },
      };
    }
    return {
      ok: false,
      error: {
        code: codeFor[field] ?? 'invalid_field',
        message: `${field}: ${issue.message}`,
        retryable: false,
        field,
      },
    };
  }
  const data = parsed.data;
  if (data.dateOfBirth >= today || data.dateOfBirth < '1900-01-01') {
    return {
      ok: false,
      error: {
        code: 'invalid_date_of_birth',
        message: 'dateOfBirth must be a past date after 1900-01-01',
        retryable: false,
        field: 'dateOfBirth',
      },
    };
  }
  return {
    ok: true,
    person: {
      email: data.email,
      firstName: data.firstName.trim(),
      lastName: data.lastName.trim(),
      dateOfBirth: data.dateOfBirth,
      countryOfResidence: data.countryOfResidence,
    },
  };
}
