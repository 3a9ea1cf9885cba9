/**
 * The SDK's error tree. Every error the SDK throws is a {@link PartnerEquityError}; branch on the subclass
 * or on the stable `code`.
 *
 * ```text
 * PartnerEquityError
 * ├─ APIError (the API answered with an error status)
 * │  ├─ BadRequestError 400, AuthenticationError 401, PermissionDeniedError 403, NotFoundError 404,
 * │  ├─ ConflictError 409, PayloadTooLargeError 413, UnsupportedMediaTypeError 415,
 * │  └─ UnprocessableEntityError 422, RateLimitError 429, InternalServerError 5xx
 * ├─ APIConnectionError (no usable response) └─ APITimeoutError
 * ├─ APIUserAbortError (the caller's signal aborted)
 * ├─ ResponseValidationError (2xx body not JSON / not the documented shape) └─ ResponseTooLargeError
 * └─ InputValidationError (bad input, thrown before anything is sent)
 * ```
 *
 * Messages carry the method and the API path (never the query string, headers or tokens).
 */

import {
  type ErrorCode,
  formatIssues,
  PartnerEquityError,
  type SdkErrorCode,
  type StatusErrorCode,
  toValidationIssues,
  type ValidationIssue,
} from './partner-equity-error.js';

/** Where a failed call went; attached to the errors raised while sending it. */
export interface RequestContext {
  method: string;
  /** The API path, without query string. */
  path: string;
  /** HTTP requests actually sent for this call (1 + retries, + 1 after a token refresh). */
  attempts: number;
  /** The `Idempotency-Key` sent (the same on every attempt), if any. */
  idempotencyKey: string | undefined;
}

/** No usable response arrived: DNS, refused or reset connection, TLS failure, a body cut short. */
export class APIConnectionError extends PartnerEquityError {
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly idempotencyKey: string | undefined;

  constructor(
    context: RequestContext,
    options: { cause?: unknown; message?: string; code?: SdkErrorCode } = {},
  ) {
    const what = options.message ?? 'connection failed';
    super(`${context.method} ${context.path}: ${what}`, options.code ?? 'connection_error', options);
    this.method = context.method;
    this.path = context.path;
    this.attempts = context.attempts;
    this.idempotencyKey = context.idempotencyKey;
  }
}

/** An attempt ran past its `timeout`, or the call ran past the client's total `deadline`. */
export class APITimeoutError extends APIConnectionError {
  /** `attempt`: one attempt's `timeout` ran out (retried); `deadline`: the call's total `deadline` did (final). */
  readonly scope: 'attempt' | 'deadline';

  constructor(
    context: RequestContext,
    options: { cause?: unknown; message?: string; scope?: 'attempt' | 'deadline' } = {},
  ) {
    super(context, { ...options, message: options.message ?? 'request timed out', code: 'timeout' });
    this.scope = options.scope ?? 'attempt';
  }
}

/** The caller's `AbortSignal` aborted the call (during an attempt or a backoff wait). */
export class APIUserAbortError extends PartnerEquityError {
  readonly method: string;
  readonly path: string;

  constructor(context: Pick<RequestContext, 'method' | 'path'>, options: { cause?: unknown } = {}) {
    super(`${context.method} ${context.path}: request aborted by the caller`, 'user_abort', options);
    this.method = context.method;
    this.path = context.path;
  }
}

/**
 * The one place a caller's abort becomes an error: once `signal` has aborted, an {@link APIUserAbortError}
 * (`error` itself if it is one) with the signal's reason as cause; else `undefined`.
 */
export function userAbortError(
  call: Pick<RequestContext, 'method' | 'path'>,
  signal: AbortSignal | undefined,
  error?: unknown,
): APIUserAbortError | undefined {
  if (signal?.aborted !== true) return undefined;
  return error instanceof APIUserAbortError ? error : new APIUserAbortError(call, { cause: signal.reason });
}

/**
 * A successful (2xx) response whose body was not JSON or, with `responseValidation: 'strict'`, broke a field
 * the spec states. The server may already have done what was asked: `body` (redacted) holds what it
 * answered, and re-sending with the same `idempotencyKey` replays the first answer instead of writing again.
 * Never retried by the SDK.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (error instanceof ResponseValidationError) await recordForReview(error.idempotencyKey, error.body);
 * }
 * ```
 */
export class ResponseValidationError extends PartnerEquityError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | undefined;
  /** The response's `Content-Type`, when it had one. */
  readonly contentType: string | undefined;
  /** The `Idempotency-Key` the call was sent with: send again with it to read the same answer. */
  readonly idempotencyKey: string | undefined;
  /**
   * The parsed body as received, secrets redacted; for a body that is not the route's answer at all (an
   * HTML page, cut JSON, another type), a redacted excerpt of its text, markup removed.
   */
  readonly body: unknown;
  readonly issues: readonly ValidationIssue[];

  constructor(
    init: {
      method: string;
      path: string;
      status: number;
      requestId: string | undefined;
      contentType?: string | undefined;
      idempotencyKey?: string | undefined;
      issues: ValidationIssue[];
      summary: string;
      body?: unknown;
      code?: SdkErrorCode;
    },
    options: { cause?: unknown } = {},
  ) {
    const key = init.idempotencyKey;
    const write =
      init.method === 'GET'
        ? ''
        : ` — the server may already have done the write (see error.body)${key === undefined ? '.' : `; send again with idempotency key ${key} to replay it, not repeat it.`}`;
    super(
      `${init.method} ${init.path}: ${init.status} response ${init.summary}${formatIssues(init.issues)}${write}`,
      init.code ?? 'response_validation',
      options,
    );
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId;
    this.contentType = init.contentType;
    this.idempotencyKey = init.idempotencyKey;
    this.body = init.body;
    this.issues = init.issues;
  }
}

/** A response body larger than the client's `maxResponseBytes`; reading stopped at the limit. */
export class ResponseTooLargeError extends PartnerEquityError {
  /** The limit in bytes. */
  readonly limit: number;

  constructor(limit: number) {
    super(`response body exceeds maxResponseBytes (${limit} bytes)`, 'response_too_large');
    this.limit = limit;
  }
}

/**
 * Input the SDK refused before sending anything: the message names every bad field.
 *
 * @example
 * ```ts
 * try { new PartnerEquity({ baseUrl: 'not a url' }); }
 * catch (error) { if (error instanceof InputValidationError) console.log(error.issues); }
 * ```
 */
export class InputValidationError extends PartnerEquityError {
  readonly issues: readonly ValidationIssue[];

  constructor(subject: string, issues: ValidationIssue[]) {
    super(`Invalid ${subject}${formatIssues(issues)}`, 'input_validation');
    this.issues = issues;
  }
}

export type { APIErrorInit, UnprocessableEntityIssue, ValidationErrorItem } from './api-error.js';
export {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from './api-error.js';
export type { ErrorCode, SdkErrorCode, StatusErrorCode, ValidationIssue };
export { formatIssues, PartnerEquityError, toValidationIssues };
