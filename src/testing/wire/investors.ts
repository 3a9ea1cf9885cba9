import { z } from 'zod';
import { openEnum } from '../../schemas/open-enum.js';
import { EmailAddress } from '../../schemas/primitives.js';
import { CalendarDate, CountryCode } from './primitives.js';

/** Most rows one `POST /v1/investors` accepts (the fake's choice; more is a 422). */
export const MAX_INVESTOR_ROWS = 500;

/** One investor to create. Every field is required (the fake's choice; the spec does not say). */
export const InvestorInput = z.strictObject({
  partnerInvestorId: z.string().min(1).max(128),
  email: EmailAddress,
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  dateOfBirth: CalendarDate,
  countryOfResidence: CountryCode,
});
export type InvestorInput = z.infer<typeof InvestorInput>;

/** `POST /v1/investors` body. */
export const InvestorCreateBody = z.strictObject({
  investors: z.array(InvestorInput).min(1).max(MAX_INVESTOR_ROWS),
});
export type InvestorCreateBody = z.infer<typeof InvestorCreateBody>;

/** Per-row outcomes: a new person, an already known `partnerInvestorId`, or a row error. */
export const INVESTOR_RESULT_STATUSES = ['created', 'existing', 'failed'] as const;

/** Row error codes; only `temporarily_unavailable` is `retryable`. */
export const INVESTOR_ERROR_CODES = [
  'missing_field',
  'invalid_field',
  'invalid_email',
  'invalid_date_of_birth',
  'invalid_country',
  'duplicate_in_request',
  'temporarily_unavailable',
] as const;

/** Why one row failed; the request as a whole still answers 200. */
export const InvestorRowError = z.looseObject({
  code: openEnum(INVESTOR_ERROR_CODES),
  message: z.string(),
  retryable: z.boolean(),
  field: z.string().optional(),
});
export type InvestorRowError = z.infer<typeof InvestorRowError>;

/** One row of the `results` array, in input order. */
export const InvestorResult = z.looseObject({
  partnerInvestorId: z.string(),
  status: openEnum(INVESTOR_RESULT_STATUSES),
  servicePersonId: z.string().optional(),
  error: InvestorRowError.optional(),
});
export type InvestorResult = z.infer<typeof InvestorResult>;

/** `POST /v1/investors` 200 response. */
export const InvestorCreateResponse = z.looseObject({
  results: z.array(InvestorResult),
});
export type InvestorCreateResponse = z.infer<typeof InvestorCreateResponse>;
