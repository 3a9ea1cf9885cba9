import pRetry from 'p-retry';
import type { Clock } from '../clock.js';
import { APIConnectionError, APIError, APITimeoutError, userAbortError } from '../errors/errors.js';
import type { Logger } from '../logging/logger.js';

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

/**
 * The one retryability rule: a later attempt may succeed after no answer at all (a connection error or a
 * timeout), a request timeout (408), rate limiting (429), or a server or gateway error (5xx).
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof APIError) return error.status === 408 || error.status === 429 || error.status >= 500;
  return error instanceof APIConnectionError;
}

/** How {@link withRetries} runs one logical call. */
export interface RetryLoop {
  /** Retries after the first attempt. */
  retries: number;
  retry: RetryConfig;
  /** Backoff waits run on this clock (a manual one in tests). */
  clock: Clock;
  logger?: Pick<Logger, 'debug'> | undefined;
  /** The call, named in debug lines and in an abort during a wait. */
  call: { method: string; path: string };
  /** Clock time after which no new attempt starts. */
  deadlineAt?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Whether the call may be repeated at all (a POST without an idempotency key may not). @default true */
  repeatable?: boolean | undefined;
  /** Hears each retry before its wait (the tracing span's events). */
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  /**
   * Whether a failed attempt is sent again without using a retry (a 429 whose wait the limiter holds, a 401
   * after a renewed token). At most {@link MAX_RESENDS} such re-sends a call; its rejection ends the call.
   */
  resend?: ((error: Error) => boolean | Promise<boolean>) | undefined;
}

/** Re-sends a call may make without using a retry: so a `Retry-After: 0` answered forever cannot spin. */
export const MAX_RESENDS = 5;

/** A retry about to happen: its number (1 for the first), the wait before it and the error that caused it. */
export interface RetryNotice {
  retry: number;
  delayMs: number;
  error: Error;
}

/**
 * Runs `attempt` at most `1 + retries` times while it fails {@link isRetryable}, waiting for `Retry-After`
 * (past `maxRetryAfterMs`, or past the deadline, the call ends) or a full-jitter backoff on the injected
 * clock, plus at most {@link MAX_RESENDS} re-sends that `resend` allows without a retry. The one place a
 * request is sent again. p-retry is the loop; the waits are ours, so a manual clock drives them.
 */
export function withRetries<T>(attempt: () => Promise<T>, loop: RetryLoop): Promise<T> {
  const { clock, logger, retry, call } = loop;
  const label = `${call.method} ${call.path}`;
  const retries = loop.repeatable === false ? 0 : loop.retries;
  let retried = 0;
  let resent = 0;
  const aborted = (reason: unknown) => userAbortError(call, loop.signal) ?? reason;
  return pRetry(attempt, {
    // p-retry's own count only caps the loop: which failure is sent again is decided below.
    retries: retries + MAX_RESENDS,
    minTimeout: 0,
    maxTimeout: 0,
    shouldRetry: async ({ error }) => {
      if (resent < MAX_RESENDS && loop.resend !== undefined) {
        let again: boolean;
        try {
          again = await loop.resend(error);
        } catch (reason) {
          throw aborted(reason);
        }
        if (again) {
          resent += 1;
          return true;
        }
      }
      // The call's own time budget is spent: no attempt can start within it.
      if (
        retried >= retries ||
        !isRetryable(error) ||
        (error instanceof APITimeoutError && error.scope === 'deadline')
      )
        return false;
      const retryAfter = error instanceof APIError ? error.retryAfterMs : undefined;
      if (retryAfter !== undefined && retryAfter > retry.maxRetryAfterMs) {
        logger?.debug(`${label}: Retry-After ${retryAfter}ms is over the cap; not retrying`);
        return false;
      }
      const delay = retryAfter ?? backoffDelay(retried, retry);
      if (loop.deadlineAt !== undefined && clock.now() + delay >= loop.deadlineAt) {
        logger?.debug(`${label}: the next attempt would pass the deadline`);
        return false;
      }
      retried += 1;
      logger?.debug(`${label}: retrying in ${delay}ms`, { reason: error.message });
      loop.onRetry?.({ retry: retried, delayMs: delay, error });
      try {
        await clock.sleep(delay, loop.signal);
      } catch (reason) {
        throw aborted(reason);
      }
      return true;
    },
  });
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
