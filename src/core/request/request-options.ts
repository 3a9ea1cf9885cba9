import { z } from 'zod';
import { milliseconds, optionIssues } from '../check-options.js';
import type { ValidationIssue } from '../errors/errors.js';

/**
 * Per-call options accepted as the last argument of every SDK method.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * await client.spvRequests.get('spvr_123', { signal: controller.signal, timeout: 5_000, maxRetries: 0 });
 * ```
 */
export interface RequestOptions {
  /** Cancels the call (including any backoff wait); the call rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Milliseconds allowed for each attempt (connect, send, read the whole response). @default the client's `timeout` (60_000) */
  timeout?: number;
  /** Retries after the first attempt for retryable failures. @default the client's `maxRetries` (2) */
  maxRetries?: number;
  /** Extra request headers for this call only; they override the client's `defaultHeaders`. */
  headers?: Record<string, string>;
  /** Longest total wait for the rate limit in this call, in ms. @default the client's `maxRateLimitWait` (60_000) */
  maxRateLimitWait?: number;
}

/**
 * Options of a call that creates something. The SDK always sends an `Idempotency-Key`, the same on every
 * retry of the call, so a lost response never creates anything twice.
 *
 * @example
 * ```ts
 * // A key tied to your own record makes a re-run of a crashed script replay instead of creating again.
 * await client.spvRequests.create(body, { idempotencyKey: `spv-request-${deal.id}` });
 * ```
 */
export interface IdempotentRequestOptions extends RequestOptions {
  /**
   * The `Idempotency-Key` (visible ASCII characters). Reusing it within 24 h replays the first
   * response; reusing it with a different body is a `ConflictError`.
   * @default a random UUID, made once per call
   */
  idempotencyKey?: string;
}

// RFC 9110 token characters for a header name. A value may hold tabs, visible ASCII, spaces and obs-text
// only (what undici accepts): a CR or LF would inject a header, and undici would refuse any control
// character with an error that looked like a failed connection, retried.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A header map (per-call `headers`, the client's `defaultHeaders`): each issue names its header. */
export const HeadersSchema = z.record(
  z.string().regex(HEADER_NAME, 'is not a valid header name'),
  z.string().regex(HEADER_VALUE, 'must not contain line breaks, NUL or other control characters'),
);

const RequestOptionsSchema = z.object({
  timeout: milliseconds().optional(),
  maxRetries: z.int().min(0, 'must be an integer >= 0').optional(),
  signal: z.instanceof(AbortSignal, { message: 'must be an AbortSignal' }).optional(),
  headers: HeadersSchema.optional(),
  maxRateLimitWait: milliseconds({ zero: true }).optional(),
});

/**
 * A call's {@link RequestOptions} (a method's own extras left out), or issues naming every bad one, so that
 * a plain-JS caller's wrong `signal` or header surfaces as `InputValidationError`.
 */
export function parseRequestOptions(options: unknown): {
  data: RequestOptions | undefined;
  issues: ValidationIssue[];
} {
  return optionIssues(RequestOptionsSchema, options, 'options') as {
    data: RequestOptions | undefined;
    issues: ValidationIssue[];
  };
}
