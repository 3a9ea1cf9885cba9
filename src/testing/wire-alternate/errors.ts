import { z } from 'zod';
import type { PARTNER_ERROR_CODES } from '../wire/errors.js';

/**
 * The alternate profile's partner error `code` for each of the default profile's: upper-case, and worded
 * differently where another server plausibly would. Typed over the default list, so a code added there
 * needs its alternate here.
 */
export const ALTERNATE_ERROR_CODES: Record<(typeof PARTNER_ERROR_CODES)[number], string> = {
  invalid_token: 'UNAUTHENTICATED',
  token_expired: 'TOKEN_EXPIRED',
  token_revoked: 'TOKEN_REVOKED',
  invalid_assertion: 'ASSERTION_MALFORMED',
  unsupported_algorithm: 'ASSERTION_ALGORITHM_NOT_ALLOWED',
  invalid_signature: 'ASSERTION_SIGNATURE_INVALID',
  unknown_client: 'CLIENT_UNKNOWN',
  client_id_mismatch: 'ASSERTION_SUBJECT_MISMATCH',
  invalid_audience: 'ASSERTION_AUDIENCE_INVALID',
  invalid_issuer: 'ASSERTION_ISSUER_INVALID',
  assertion_expired: 'ASSERTION_EXPIRED',
  assertion_not_yet_valid: 'ASSERTION_NOT_YET_VALID',
  assertion_lifetime_too_long: 'ASSERTION_LIFETIME_TOO_LONG',
  assertion_replayed: 'ASSERTION_REPLAYED',
  invalid_refresh_token: 'REFRESH_TOKEN_INVALID',
  refresh_token_expired: 'REFRESH_TOKEN_EXPIRED',
  refresh_token_reused: 'REFRESH_TOKEN_REUSED',
  not_provisioned: 'PARTNER_API_NOT_ENABLED',
  not_found: 'NOT_FOUND',
  template_not_found: 'TEMPLATE_NOT_FOUND',
  spv_request_not_found: 'SPV_REQUEST_NOT_FOUND',
  spv_not_found: 'SPV_NOT_FOUND',
  person_not_found: 'PERSON_NOT_FOUND',
  subscription_not_found: 'SUBSCRIPTION_NOT_FOUND',
  contract_validation_failed: 'CONTRACT_VALIDATION_ERROR',
  validation_failed: 'VALIDATION_ERROR',
  invalid_multipart: 'MALFORMED_MULTIPART',
  empty_file: 'FILE_EMPTY',
  idempotency_key_conflict: 'IDEMPOTENCY_KEY_REUSED',
  spv_request_terminal: 'INVALID_STATE_TRANSITION',
  subscription_terminal: 'SUBSCRIPTION_CLOSED',
  signed_form_missing: 'SIGNED_FORM_REQUIRED',
  file_too_large: 'FILE_TOO_LARGE',
  payload_too_large: 'REQUEST_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_FILE_TYPE',
  rate_limited: 'RATE_LIMITED',
  internal_error: 'INTERNAL_SERVER_ERROR',
  bad_gateway: 'BAD_GATEWAY',
  service_unavailable: 'SERVICE_UNAVAILABLE',
  gateway_timeout: 'GATEWAY_TIMEOUT',
  injected_fault: 'INJECTED_FAULT',
};

/**
 * `validationErrors[].code` of 400 responses (contract, subscription and funding field checks), Pydantic
 * style; `attribute` is a dotted path with numeric segments (`shareClasses.0.carryPercent`).
 */
export const ALTERNATE_ATTRIBUTE_CODES: Record<string, string> = {
  required: 'missing',
  invalid_type: 'type_error',
  invalid_format: 'string_pattern_mismatch',
  too_small: 'too_short',
  too_big: 'too_long',
  invalid_value: 'value_error',
  unknown_attribute: 'extra_forbidden',
  invalid_amount: 'amount_invalid',
  invalid_currency: 'currency_invalid',
  currency_mismatch: 'currency_not_allowed',
  unknown_share_class: 'share_class_not_found',
  unknown_person: 'person_not_found',
  duplicate_in_request: 'duplicate_row',
  subscription_exists: 'already_subscribed',
};

const PARTNER_CODES = [...new Set(Object.values(ALTERNATE_ERROR_CODES))] as [string, ...string[]];

/** One failed attribute in a 400 response. */
export const AttributeError = z.looseObject({
  attribute: z.string(),
  code: z.string(),
  message: z.string(),
});

/** The partner envelope (the spec's four fields) with the alternate profile's codes. */
export const PartnerErrorBody = z.looseObject({
  code: z.enum(PARTNER_CODES),
  detail: z.string(),
  errorId: z.uuid(),
  validationErrors: z.array(AttributeError),
});

/** The body of an unknown path (404) or of a known path with another method (405), as Starlette sends it. */
export const RouteErrorBody = z.looseObject({ detail: z.enum(['Not Found', 'Method Not Allowed']) });
