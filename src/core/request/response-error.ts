import {
  APIError,
  APITimeoutError,
  RateLimitError,
  type RequestContext,
  ResponseValidationError,
  type ValidationIssue,
} from '../errors/errors.js';
import {
  isSecretKey,
  MAX_KEPT_TEXT,
  MAX_REDACTED_BODY,
  REDACTED,
  redact,
  redactText,
} from '../logging/redact.js';
import type { SecretRegistry } from '../logging/secret-registry.js';
import type { ResponseHeaders } from '../transport/transport.js';
import { parseRetryAfter } from './retry-policy.js';

// Building the errors of a call from what it received (or did not): the one place that decides what of an
// answer an error keeps (redacted by value and by shape).

/** A status, headers and the whole body text of one attempt. */
export interface ReadResponse {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

/** Where the response came from, for error messages and the raw response. */
export interface ResponseContext extends RequestContext {
  now: number;
  /** The route template for messages that group calls (`/v1/spv-requests/{slug}`); else `path`. */
  route?: string | undefined;
  /** The client's secrets, redacted by value from what an error keeps of a body. */
  secrets?: SecretRegistry | undefined;
}

/** The call an error names: its method, path, requests sent so far and idempotency key. */
export function contextOf({
  spec,
  attempts,
  idempotencyKey,
}: {
  spec: { method: string; path: string };
  attempts: number;
  idempotencyKey: string | undefined;
}): RequestContext {
  return { method: spec.method, path: spec.path, attempts, idempotencyKey };
}

/** The request id the API (or its gateway) put on a response. */
export function requestIdOf(
  headers: ResponseHeaders,
  redactWith?: { secrets?: SecretRegistry | undefined },
): string | undefined {
  const id = headers.get('x-request-id') ?? headers.get('request-id');
  if (id === null) return undefined;
  // The server's text: in errors and log lines, one that carries a token is redacted.
  return redactWith === undefined ? id : redactText(id, redactWith.secrets);
}

/** The WHATWG `Headers` of a response (made once asked for: a raw response keeps them, not the body). */
export function toHeaders(headers: ResponseHeaders): Headers {
  return headers instanceof Headers ? headers : new Headers([...headers]);
}

/** The {@link APIError} subclass of an error status, its body's envelope or excerpt redacted by value. */
export function toAPIError(
  context: ResponseContext,
  response: ReadResponse,
  secrets?: SecretRegistry,
): APIError {
  const { status, text, headers } = response;
  return APIError.from({
    status,
    method: context.method,
    path: context.path,
    headers: toHeaders(headers),
    requestId: requestIdOf(headers, { secrets }),
    idempotencyKey: context.idempotencyKey,
    attempts: context.attempts,
    body: errorBody(text, headers, secrets),
    retryAfterMs: parseRetryAfter(headers.get('retry-after'), context.now),
    secrets,
  });
}

const EXCERPT_LENGTH = 200;
// A string field of JSON text, whole or cut short: a credential's value is removed by its name.
const jsonField = /"([^"\\]{1,64})"\s*:\s*"((?:[^"\\]|\\.)*)("|$)/g;

// A JSON error body (up to MAX_REDACTED_BODY; `json: false`, never), else a redacted excerpt of its first
// MAX_KEPT_TEXT characters.
function errorBody(
  text: string,
  headers: ResponseHeaders,
  secrets: SecretRegistry | undefined,
  json = true,
): unknown {
  if (text === '') return undefined;
  if (json && text.length <= MAX_REDACTED_BODY) {
    try {
      return JSON.parse(text);
    } catch {}
  }
  const read = text.slice(0, MAX_KEPT_TEXT);
  const html = /html/i.test(headers.get('content-type') ?? '') || read.trimStart().startsWith('<');
  const plain = (
    html ? read.replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ').replace(/<[^<>]*>/g, ' ') : read
  )
    .replace(/\s+/g, ' ')
    .trim();
  const excerpt = redactText(plain, secrets).replace(jsonField, (field, name: string, _value, end: string) =>
    isSecretKey(name) ? `"${name}":"${REDACTED}${end}` : field,
  );
  return excerpt.length > EXCERPT_LENGTH ? `${excerpt.slice(0, EXCERPT_LENGTH)}…` : excerpt;
}

// The error for a 2xx body that is not what was expected. An `excerpt` keeps the body's text (redacted,
// markup removed, bounded) rather than its parsed value: for a body that is not the route's answer at all.
export function validationError(
  context: ResponseContext,
  response: ReadResponse,
  summary: string,
  issues: ValidationIssue[],
  excerpt: boolean,
  body?: unknown,
  cause?: unknown,
): ResponseValidationError {
  const contentType = response.headers.get('content-type') ?? undefined;
  return new ResponseValidationError(
    {
      method: context.method,
      path: context.path,
      status: response.status,
      contentType,
      requestId: requestIdOf(response.headers, context),
      idempotencyKey: context.idempotencyKey,
      issues,
      summary: excerpt && contentType !== undefined ? `${summary} (${contentType.split(';')[0]})` : summary,
      // A body too long to redact field by field is kept as a redacted excerpt of its text.
      body: excerpt
        ? errorBody(response.text, response.headers, context.secrets, false)
        : body === undefined
          ? undefined
          : redact(response.text.length > MAX_REDACTED_BODY ? response.text : body, {
              secrets: context.secrets,
            }),
    },
    { cause },
  );
}

/**
 * The call gave up waiting for the rate limit: with the 429 it last received (`read`), if any; else the
 * limiter refused a turn and nothing was sent this time.
 */
export function rateLimitGaveUp(
  context: ResponseContext,
  read: ReadResponse | undefined,
  waitedMs: number,
  retryAfterMs?: number,
): RateLimitError {
  const answer = read && toAPIError(context, read, context.secrets);
  return new RateLimitError({
    method: context.method,
    path: context.path,
    attempts: context.attempts,
    idempotencyKey: context.idempotencyKey,
    status: 429,
    answered: read !== undefined,
    headers: answer?.headers ?? new Headers(),
    requestId: answer?.requestId,
    body: answer?.body,
    retryAfterMs: retryAfterMs ?? answer?.retryAfterMs,
    waitedMs,
    secrets: context.secrets,
  });
}

/** The call's `deadline` passed. */
export function deadlineError(context: RequestContext, deadline: number | undefined, cause?: unknown) {
  return new APITimeoutError(context, {
    cause,
    scope: 'deadline',
    message: `deadline of ${deadline ?? '?'}ms exceeded after ${context.attempts} attempt(s)`,
  });
}

export function connectionMessage(error: unknown): string {
  // Only the error code (ECONNREFUSED, UND_ERR_SOCKET…): causes can quote hosts and URLs.
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  const shown = [code, cause?.code].find((c) => typeof c === 'string');
  return shown === undefined ? 'connection failed' : `connection failed (${shown})`;
}
