/**
 * Retry tuning. Waits use "full jitter": a uniformly random wait between 0 and
 * `min(maxDelayMs, initialDelayMs * 2 ** retryIndex)`, so many clients failing together spread out.
 */
export interface RetryConfig {
  /** Upper bound of the first backoff wait. @default 500 */
  initialDelayMs: number;
  /** Cap of any backoff wait. @default 8000 */
  maxDelayMs: number;
  /**
   * Longest `Retry-After` the SDK waits for. A server asking for longer gets no retry: the error surfaces
   * at once (with `retryAfterMs` set) rather than a retry the server said is too early. @default 60000
   */
  maxRetryAfterMs: number;
  /** Source of jitter in [0, 1); inject a fixed function for deterministic tests. @default Math.random */
  random: () => number;
}

/** The defaults DESIGN.md decides: 0.5 s doubling, 8 s cap, `Retry-After` honoured up to 60 s. */
export const DEFAULT_RETRY: RetryConfig = Object.freeze({
  initialDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
});

/** Statuses worth another attempt: request timeout, rate limiting, server and gateway errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The full-jitter wait before retry number `retryIndex` (0 for the first retry), in whole milliseconds. */
export function backoffDelay(retryIndex: number, config: RetryConfig): number {
  const ceiling = Math.min(config.maxDelayMs, config.initialDelayMs * 2 ** retryIndex);
  const r = Math.min(Math.max(config.random(), 0), 1);
  return Math.floor(r * ceiling);
}

/**
 * `Retry-After` in milliseconds: delay-seconds (`120`) or an HTTP date (relative to `now`). A date in the
 * past means 0. `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only full HTTP dates (which name a weekday or a month), so a stray number never parses as a date.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
