import { z } from 'zod';
import { EmailAddress } from '../../schemas/primitives.js';
import type {
  INVESTOR_ERROR_CODES as DEFAULT_CODES,
  INVESTOR_RESULT_STATUSES as DEFAULT_STATUSES,
} from '../wire/investors.js';
import { CalendarDate } from '../wire/primitives.js';
import { orNull } from './primitives.js';

/** Most rows one `POST /v1/investors` accepts in the alternate profile (more is a 422). */
export const MAX_INVESTOR_ROWS = 1000;

/**
 * One investor to create: `partnerInvestorId` and `email` required; the other fields optional (absent or
 * `null`), checked when given; at most 255 characters each (the e-mail too, a bound of
 * this profile's own, past the SDK's format check); the
 * country code in either case.
 */
export const InvestorInput = z.object({
  partnerInvestorId: z.string().min(1).max(255),
  email: EmailAddress.max(255),
  firstName: z.string().trim().min(1).max(255).nullish(),
  lastName: z.string().trim().min(1).max(255).nullish(),
  dateOfBirth: CalendarDate.nullish(),
  countryOfResidence: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'Expected a two-letter ISO 3166-1 country code')
    .nullish(),
});
export type InvestorInput = z.infer<typeof InvestorInput>;

/** `POST /v1/investors` body. */
export const InvestorCreateBody = z.object({
  investors: z.array(InvestorInput).min(1).max(MAX_INVESTOR_ROWS),
});

/** The alternate row status for each default one. */
export const ALTERNATE_INVESTOR_STATUSES = {
  created: 'success',
  existing: 'already_exists',
  failed: 'error',
} as const satisfies Record<(typeof DEFAULT_STATUSES)[number], string>;

/** The alternate row error code for each default one; only `try_again_later` is `retryable`. */
export const ALTERNATE_INVESTOR_ERROR_CODES = {
  missing_field: 'field_required',
  invalid_field: 'field_invalid',
  invalid_email: 'email_invalid',
  invalid_date_of_birth: 'date_of_birth_invalid',
  invalid_country: 'country_invalid',
  duplicate_in_request: 'duplicate_row',
  temporarily_unavailable: 'try_again_later',
} as const satisfies Record<(typeof DEFAULT_CODES)[number], string>;

/** Per-row outcomes. */
export const INVESTOR_RESULT_STATUSES = Object.values(ALTERNATE_INVESTOR_STATUSES);

/** Row error codes. */
export const INVESTOR_ERROR_CODES = Object.values(ALTERNATE_INVESTOR_ERROR_CODES);

/** Why one row failed; `field` is `null` for a row-wide error. */
export const InvestorRowError = z.looseObject({
  code: z.enum(INVESTOR_ERROR_CODES),
  message: z.string(),
  retryable: z.boolean(),
  field: orNull(z.string()),
});

/** One row of `results`: `servicePersonId` and `error` always sent, one of them `null`. */
export const InvestorResult = z.looseObject({
  partnerInvestorId: z.string(),
  status: z.enum(INVESTOR_RESULT_STATUSES),
  servicePersonId: orNull(z.string()),
  error: orNull(InvestorRowError),
});
export type InvestorResult = z.infer<typeof InvestorResult>;

/** `POST /v1/investors` 200 response. */
export const InvestorCreateResponse = z.looseObject({ results: z.array(InvestorResult) });
