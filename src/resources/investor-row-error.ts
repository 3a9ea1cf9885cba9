import type { z } from 'zod';
import type { InvestorRowError } from '../schemas/investors.js';

/** Codes of the row errors the SDK itself gives rows it refuses before sending (never `retryable`). */
export type ClientRowErrorCode = 'invalid_field' | 'duplicate_in_request';

/**
 * The row error for an investor row that failed `InvestorInput`: the first problem decides `field`;
 * `message` names every problem of the row. Never `retryable`: the row must be fixed.
 */
export function investorRowError(issues: readonly z.core.$ZodIssue[]): InvestorRowError {
  const described = issues.map((issue) => ({
    field: String(issue.path[0] ?? 'partnerInvestorId'),
    message: issue.message,
  }));
  return {
    code: 'invalid_field' satisfies ClientRowErrorCode,
    message: described.map((item) => `${item.field}: ${item.message}`).join('; '),
    retryable: false,
    field: described[0]?.field ?? 'partnerInvestorId',
  };
}
