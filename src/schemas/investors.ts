import { z } from 'zod';
import { CalendarDate, CountryCode, EmailAddress, nullish } from './primitives.js';

export { EMAIL_PATTERN } from './primitives.js';

/**
 * One investor to create. The spec does not say which fields are required: only `partnerInvestorId` (the key
 * of the result row) is; the formats the spec states are checked on the fields present, and any other field
 * is sent as given.
 */
export const InvestorInput = z.looseObject({
  partnerInvestorId: z.string().min(1, 'Required: the partner investor id'),
  email: nullish(EmailAddress),
  firstName: nullish(z.string()),
  lastName: nullish(z.string()),
  dateOfBirth: nullish(CalendarDate),
  countryOfResidence: nullish(CountryCode),
});
/** One investor to create: `partnerInvestorId` and the fields you know. */
export interface InvestorInput {
  /** Your own id for the investor: the key of the result row and of replays. */
  partnerInvestorId: string;
  email?: string | null | undefined;
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  /** Calendar date `YYYY-MM-DD`. */
  dateOfBirth?: string | null | undefined;
  /** Two-letter country code (ISO 3166-1 alpha-2). */
  countryOfResidence?: string | null | undefined;
}

/** Why one row failed; the request as a whole still answers 200. `field` is absent for row-wide errors. */
export const InvestorRowError = z.looseObject({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  field: nullish(z.string()),
});
export type InvestorRowError = z.infer<typeof InvestorRowError>;

/**
 * One row of the `results` array as the server sends it. `status` values are not shown by the spec;
 * `servicePersonId` is present on success and `error` on failure (either may also come as `null`).
 */
export const InvestorResult = z.looseObject({
  partnerInvestorId: z.string(),
  status: z.string(),
  servicePersonId: nullish(z.string()),
  error: nullish(InvestorRowError),
});
export type InvestorResult = z.infer<typeof InvestorResult>;

/** `POST /v1/investors` 200 response. */
export const InvestorCreateResponse = z.looseObject({
  results: z.array(InvestorResult),
});
export type InvestorCreateResponse = z.infer<typeof InvestorCreateResponse>;

/** A row that created or found a person: `servicePersonId` is there and there is no `error`. */
export type InvestorRowSuccess = InvestorResult & { servicePersonId: string; error?: null | undefined };
/** A row that failed, with why: refused by the API, by the SDK before sending, or lost with its chunk. */
export type InvestorRowFailure = InvestorResult & { error: InvestorRowError };
/** One row's outcome; `row.error` tells the two apart (`if (row.error) … else row.servicePersonId`). */
export type InvestorRowResult = InvestorRowSuccess | InvestorRowFailure;

/**
 * The server's row as an {@link InvestorRowResult}: a row with neither a person id nor an `error` (a status
 * the SDK does not know, say) is a failure, given an `error` that says so. Other rows are returned as sent.
 */
export function investorRowResult(row: InvestorResult): InvestorRowResult {
  if (row.error != null) return row as InvestorRowFailure;
  if (typeof row.servicePersonId === 'string' && row.servicePersonId !== '') return row as InvestorRowSuccess;
  return {
    ...row,
    error: {
      code: 'no_person_id',
      message: `The API answered this row with status "${row.status}" but neither a servicePersonId nor an error`,
      retryable: false,
    },
  };
}
