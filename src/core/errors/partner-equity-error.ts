import { redactText } from '../logging/redact.js';

/** Codes for errors raised by the SDK itself (not by the API). */
export type SdkErrorCode =
  | 'connection_error'
  | 'timeout'
  | 'user_abort'
  | 'response_validation'
  | 'response_too_large'
  | 'input_validation';

/** Codes the SDK gives an {@link APIError} whose body carried no `code` (e.g. a proxy's HTML 502 page). */
export type StatusErrorCode =
  | 'bad_request'
  | 'authentication_error'
  | 'permission_denied'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable_entity'
  | 'rate_limited'
  | 'internal_server_error'
  | 'api_error';

/**
 * A stable error code: one of the SDK's own codes, a status-derived code, or (for API errors) the API's own
 * `code` from the error envelope, whose values the API has not published.
 */
export type ErrorCode = SdkErrorCode | StatusErrorCode | (string & {});

/**
 * Base class of every error the SDK throws. Its message (and so its stack) is cleared of anything shaped
 * like a secret (JWTs, `Bearer …`, PEM private keys, `whsec_…`) when it is built; API errors also remove
 * the client's own tokens by value (see `APIError`).
 */
export class PartnerEquityError extends Error {
  /** Stable, machine-readable code; safe to branch on. */
  readonly code: ErrorCode;

  constructor(message: string, code: ErrorCode, options?: { cause?: unknown }) {
    super(redactText(message), options?.cause === undefined ? undefined : { cause: options.cause });
    // Non-enumerable, like Error's own `name`, so `util.inspect` and JSON output stay about the failure.
    Object.defineProperty(this, 'name', { value: new.target.name, configurable: true, writable: true });
    this.code = code;
  }
}

/** One problem found by a zod schema, with a dotted path such as `documents.0.status`. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** Formats issues as `: a.b: message; c: message` (at most 10, then a count). */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  if (issues.length === 0) return '';
  const shown = issues.slice(0, 10).map((issue) => `${issue.path || '(root)'}: ${issue.message}`);
  const more = issues.length > 10 ? `; and ${issues.length - 10} more` : '';
  return `: ${shown.join('; ')}${more}`;
}

/** Converts zod issues (or anything shaped like them) to {@link ValidationIssue}s with dotted paths. */
export function toValidationIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): ValidationIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map((part) => String(part)).join('.'),
    message: issue.message,
  }));
}
