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
