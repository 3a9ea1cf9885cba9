import { z } from 'zod';
import { openEnum } from '../../schemas/open-enum.js';

/**
 * Every `code` the fake API sends in the partner error envelope. The spec leaves the set open ("not shown");
 * these are the fake's choices, and the SDK types `code` as these literals plus any other string.
 */
export const PARTNER_ERROR_CODES = [
  'invalid_token',
  'token_expired',
  'token_revoked',
  'invalid_assertion',
  'unsupported_algorithm',
  'invalid_signature',
  'unknown_client',
  'client_id_mismatch',
  'invalid_audience',
  'invalid_issuer',
  'assertion_expired',
  'assertion_not_yet_valid',
  'assertion_lifetime_too_long',
  'assertion_replayed',
  'invalid_refresh_token',
  'refresh_token_expired',
  'refresh_token_reused',
  'not_provisioned',
  'not_found',
  'template_not_found',
  'spv_request_not_found',
  'spv_not_found',
  'person_not_found',
  'subscription_not_found',
  'contract_validation_failed',
  'validation_failed',
  'invalid_multipart',
  'empty_file',
  'idempotency_key_conflict',
  'spv_request_terminal',
  'subscription_terminal',
  'signed_form_missing',
  'file_too_large',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'bad_gateway',
  'service_unavailable',
  'gateway_timeout',
  'injected_fault',
] as const;

/** A stable partner error code: one of {@link PARTNER_ERROR_CODES} or a code added later. */
export const PartnerErrorCode = openEnum(PARTNER_ERROR_CODES);
export type PartnerErrorCode = z.infer<typeof PartnerErrorCode>;

/** One failed attribute in a 400 response (`attribute` is a dotted path such as `shareClasses[0].carryPercent`). */
export const AttributeError = z.looseObject({
  attribute: z.string(),
  code: z.string(),
  message: z.string(),
});
export type AttributeError = z.infer<typeof AttributeError>;

/** The partner error envelope of 400, 401, 403, 404, 409, 413, 415 (and injected 429/5xx) responses. */
export const PartnerErrorBody = z.looseObject({
  code: PartnerErrorCode,
  detail: z.string(),
  errorId: z.string(),
  validationErrors: z.array(AttributeError).optional(),
});
export type PartnerErrorBody = z.infer<typeof PartnerErrorBody>;

/** One schema violation of a 422 response: where (`['body', 'investors', '0', 'email']`), what and why. */
export const ValidationIssue = z.looseObject({
  loc: z.array(z.string()),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** The validation envelope of 422 responses. */
export const ValidationErrorBody = z.looseObject({
  detail: z.array(ValidationIssue),
});
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;
