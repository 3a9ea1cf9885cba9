import { APIError, APITimeoutError, RateLimitError, type RequestContext } from '../errors/errors.js';
import type { SecretRegistry } from '../logging/secret-registry.js';
import {
  errorBody,
  type ReadResponse,
  type ResponseContext,
  requestIdOf,
  toHeaders,
} from './read-response.js';
import { parseRetryAfter } from './retry-policy.js';

// The errors of a call that got no usable answer: an error status, no answer at all, or a rate limit it
// gave up waiting for. Each keeps what an answer may show, redacted by value and by shape.

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
