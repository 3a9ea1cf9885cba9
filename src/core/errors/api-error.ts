import { isRecord } from '../is-record.js';
import { isSecretKey, redact, redactText } from '../logging/redact.js';
import type { SecretRegistry } from '../logging/secret-registry.js';
import { type ErrorCode, PartnerEquityError, type StatusErrorCode } from './partner-equity-error.js';

/** One element of the partner error envelope's `validationErrors`. */
export interface ValidationErrorItem {
  attribute: string;
  code: string;
  message: string;
}

/** One element of the 422 validation envelope's `detail`. */
export interface UnprocessableEntityIssue {
  loc: string[];
  msg: string;
  type: string;
}

/** What the pipeline knows when it turns an error response into an {@link APIError}. */
export interface APIErrorInit {
  status: number;
  method: string;
  path: string;
  headers: Headers;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  attempts: number;
  /** The parsed JSON body, or a short excerpt of a non-JSON body. */
  body: unknown;
  /** Milliseconds the server asked to wait (`Retry-After`), if it said. */
  retryAfterMs: number | undefined;
  /** Ms the call waited for the rate limit before giving up on it (`maxRateLimitWait`), if it did. */
  waitedMs?: number | undefined;
  /** `false` when no answer came with this status (the rate limiter refused a turn before sending). */
  answered?: boolean | undefined;
  /**
   * @internal The client's secrets: removed by value from the body, headers and message (secret shapes are
   * removed whatever this holds).
   */
  secrets?: SecretRegistry | undefined;
}

/**
 * The API answered with an error status. Fields come from the partner error envelope
 * (`{ code, detail, errorId, validationErrors }`) when the body carried one.
 *
 * Redacted when built: a server may quote the assertion, token or refresh token it refused (in `detail`, a
 * 422's `input`, an HTML page). The body, headers, request id and so the message, stack, `detail`,
 * `util.inspect` and `JSON.stringify` of the error hold `[REDACTED]` in place of the client's own secrets
 * (by value) and of anything shaped like one (JWTs, `Bearer …`, PEM keys, `whsec_…`), and never a
 * credential header.
 *
 * @example
 * ```ts
 * try { await client.spvRequests.cancel(slug); }
 * catch (error) {
 *   if (error instanceof ConflictError) console.log(error.code, error.detail, error.errorId, error.requestId);
 *   else throw error;
 * }
 * ```
 */
export class APIError extends PartnerEquityError {
  readonly status: number;
  /** The envelope's `detail` text (or, for 422, the joined `msg`s); `undefined` when the body had none. */
  readonly detail: string | undefined;
  /** The envelope's `errorId`, to quote to the API's support. */
  readonly errorId: string | undefined;
  /** The envelope's `validationErrors` (empty when absent). */
  readonly validationErrors: readonly ValidationErrorItem[];
  /** From the `x-request-id` (or `request-id`) response header. */
  readonly requestId: string | undefined;
  /** Response headers (credentials such as `set-cookie` removed). */
  readonly headers: Headers;
  readonly idempotencyKey: string | undefined;
  readonly attempts: number;
  readonly method: string;
  readonly path: string;
  /** The parsed JSON body, or a short excerpt of a non-JSON body (e.g. a proxy's HTML page). */
  readonly body: unknown;
  /** How long the server asked to wait before retrying (`Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(init: APIErrorInit) {
    const { secrets } = init;
    const body =
      typeof init.body === 'string' ? redactText(init.body, secrets) : redact(init.body, { secrets });
    const requestId = init.requestId === undefined ? undefined : redactText(init.requestId, secrets);
    const envelope = readEnvelope(body);
    const code: ErrorCode =
      envelope.code ??
      byStatus[init.status]?.[1] ??
      (init.status >= 500 ? 'internal_server_error' : 'api_error');
    super(redactText(describe({ ...init, body, requestId }, envelope), secrets), code);
    this.status = init.status;
    this.detail = envelope.detail;
    this.errorId = envelope.errorId;
    this.validationErrors = envelope.validationErrors;
    this.requestId = requestId;
    this.headers = redactHeaderValues(init.headers, secrets);
    this.idempotencyKey = init.idempotencyKey;
    this.attempts = init.attempts;
    this.method = init.method;
    this.path = init.path;
    this.body = body;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** Builds the subclass that matches `init.status`. */
  static from(init: APIErrorInit): APIError {
    const Class = byStatus[init.status]?.[0] ?? (init.status >= 500 ? InternalServerError : APIError);
    return new Class(init);
  }
}

/** 400: contract validation failed, validation failed, or an invalid upload. */
export class BadRequestError extends APIError {}
/** 401: missing, invalid or expired token; a failed token exchange; a reused refresh token. */
export class AuthenticationError extends APIError {}
/** 403: the service is not provisioned for the partner API for this client. Never retried. */
export class PermissionDeniedError extends APIError {}
/** 404: template, SPV request, SPV or person not found. */
export class NotFoundError extends APIError {}
/** 409: idempotency key reused with another body, or a state conflict (terminal status, ordering). */
export class ConflictError extends APIError {}
/**
 * 413: an uploaded file over the API's 10 MB, or a JSON body over a cap in front of the service (a proxy's
 * `client_max_body_size`, often answered with an HTML page). A bulk call handles the second itself by
 * splitting its chunks; another call gets this error (docs/bulk-and-uploads.md).
 */
export class PayloadTooLargeError extends APIError {}
/** 415: unsupported media type. */
export class UnsupportedMediaTypeError extends APIError {}
/**
 * 429: rate limited. Requests wait their turn and a 429 that says when to come back is re-sent then; this
 * surfaces once the wait would pass `maxRateLimitWait` (`waitedMs` says how long the call waited).
 */
export class RateLimitError extends APIError {
  /** Ms the call waited for the rate limit before giving up; `undefined` when it did not wait. */
  readonly waitedMs: number | undefined;

  constructor(init: APIErrorInit) {
    super(init);
    this.waitedMs = init.waitedMs;
  }
}
/** 5xx: the API or a proxy in front of it failed; retried automatically. */
export class InternalServerError extends APIError {}

/** 422: the request failed the API's schema validation; `issues` holds the envelope's `detail[]`. */
export class UnprocessableEntityError extends APIError {
  readonly issues: readonly UnprocessableEntityIssue[];

  constructor(init: APIErrorInit) {
    super(init);
    // From the redacted body: a `msg` may quote a token the client sent.
    this.issues = readIssues(this.body);
  }
}

type APIErrorClass = new (init: APIErrorInit) => APIError;

const byStatus: Record<number, [APIErrorClass, StatusErrorCode]> = {
  400: [BadRequestError, 'bad_request'],
  401: [AuthenticationError, 'authentication_error'],
  403: [PermissionDeniedError, 'permission_denied'],
  404: [NotFoundError, 'not_found'],
  409: [ConflictError, 'conflict'],
  413: [PayloadTooLargeError, 'payload_too_large'],
  415: [UnsupportedMediaTypeError, 'unsupported_media_type'],
  422: [UnprocessableEntityError, 'unprocessable_entity'],
  429: [RateLimitError, 'rate_limited'],
};

const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

function readIssues(body: unknown): UnprocessableEntityIssue[] {
  if (!isRecord(body) || !Array.isArray(body['detail'])) return [];
  return body['detail'].filter(isRecord).map((item) => ({
    loc: Array.isArray(item['loc']) ? item['loc'].map((part) => String(part)) : [],
    msg: optionalString(item['msg']) ?? '',
    type: optionalString(item['type']) ?? '',
  }));
}

type Envelope = ReturnType<typeof readEnvelope>;

function readEnvelope(json: unknown) {
  const body = isRecord(json) ? json : {};
  const issues = readIssues(body);
  const validationErrors = Array.isArray(body['validationErrors'])
    ? body['validationErrors'].filter(isRecord).map((item) => ({
        attribute: optionalString(item['attribute']) ?? '',
        code: optionalString(item['code']) ?? '',
        message: optionalString(item['message']) ?? '',
      }))
    : [];
  return {
    code: optionalString(body['code']),
    detail:
      optionalString(body['detail']) ??
      (issues.length > 0
        ? issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ')
        : undefined),
    errorId: optionalString(body['errorId']),
    validationErrors,
  };
}

// Credential headers are dropped; the others keep their names, with secret values replaced.
function redactHeaderValues(headers: Headers, secrets: SecretRegistry | undefined): Headers {
  const out = new Headers();
  for (const [name, value] of headers) if (!isSecretKey(name)) out.append(name, redactText(value, secrets));
  return out;
}

function describe(init: APIErrorInit, envelope: Envelope): string {
  const parts = [
    init.answered === false
      ? `${init.method} ${init.path}: not sent (rate limit)`
      : `${init.method} ${init.path} → ${init.status}`,
  ];
  if (envelope.detail !== undefined) parts.push(`: ${envelope.detail}`);
  else if (typeof init.body === 'string' && init.body !== '')
    parts.push(` (non-JSON body: ${JSON.stringify(init.body)})`);
  for (const item of envelope.validationErrors.slice(0, 5))
    parts.push(`; ${item.attribute || '(root)'}: ${item.message || item.code}`);
  const tags = [
    envelope.code === undefined ? undefined : `code ${envelope.code}`,
    envelope.errorId === undefined ? undefined : `errorId ${envelope.errorId}`,
    init.requestId === undefined ? undefined : `requestId ${init.requestId}`,
  ].filter((tag) => tag !== undefined);
  if (tags.length > 0) parts.push(` [${tags.join(', ')}]`);
  if (init.waitedMs !== undefined)
    parts.push(`; gave up after waiting ${init.waitedMs} ms for the rate limit`);
  return parts.join('');
}
