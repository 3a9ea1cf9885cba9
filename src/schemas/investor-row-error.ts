import type { z } from 'zod';
import type { InvestorRowError } from './investors.js';

const codeByField: Record<string, InvestorRowError['code']> = {
  email: 'invalid_email',
  dateOfBirth: 'invalid_date_of_birth',
  countryOfResidence: 'invalid_country',
};

/**
 * The row error for an investor row that failed {@link InvestorInput}: the first problem decides `code` and
 * `field` (`missing_field`, `invalid_email`, `invalid_date_of_birth`, `invalid_country`, else
 * `invalid_field`); `message` names every problem of the row. Never `retryable`: the row must be fixed.
 */
export function investorRowError(
  row: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
): InvestorRowError {
  const described = issues.map((issue) => {
    const field =
      issue.code === 'unrecognized_keys'
        ? (issue.keys[0] ?? '')
        : String(issue.path[0] ?? 'partnerInvestorId');
    const missing = issue.code === 'invalid_type' && row[field] === undefined;
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`
        : missing
          ? 'is required'
          : issue.message;
    const code: InvestorRowError['code'] =
      issue.code === 'unrecognized_keys'
        ? 'invalid_field'
        : missing
          ? 'missing_field'
          : (codeByField[field] ?? 'invalid_field');
    return { field, code, message };
  });
  const first = described[0] ?? {
    field: 'partnerInvestorId',
    code: 'invalid_field' as const,
    message: 'is invalid',
  };
  return {
    code: first.code,
    message: described.map((item) => `${item.field}: ${item.message}`).join('; '),
    retryable: false,
    field: first.field,
  };
}
