import { parseRetryAfter } from '../request/retry-policy.js';
import type { ResponseHeaders } from '../transport/transport.js';

/** What a response said about the budget (each field only when it said so); times in ms. */
export interface RateLimitHint {
  limit?: number;
  windowMs?: number;
  remaining?: number;
  resetMs?: number;
  retryAfterMs?: number;
}

/** Longest time anything learned from one answer holds: a window, a reset, a `Retry-After`. */
export const MAX_LEARNED_MS = 3_600_000;
/** A `q` above this is no limit worth pacing to; it also keeps every number the store gets finite. */
const MAX_LIMIT = 1_000_000;

const first = (value: string | null) => value?.split(',')[0] ?? '';
const param = (value: string | null, name: string) =>
  num(new RegExp(`;\\s*${name}=([\\d.]+)`).exec(first(value))?.[1]);
// A 400-digit number is `Infinity` to JavaScript: not a number the limiter can use.
const num = (text: string | undefined) =>
  text === undefined || !Number.isFinite(Number(text)) ? undefined : Number(text);
const bounded = (ms: number) => Math.min(Math.max(0, ms), MAX_LEARNED_MS);

/** A `Reset`: seconds from now, else an epoch second (over 10^9), else an epoch millisecond (over 10^12). */
function resetIn(reset: number, now: number): number {
  return bounded(reset > 1e12 ? reset - now : reset > 1e9 ? reset * 1000 - now : reset * 1000);
}

/**
 * Reads `RateLimit-Policy`/`RateLimit` (draft-ietf-httpapi-ratelimit-headers, structured fields: the first
 * item), else `RateLimit-*` or `X-RateLimit-*`, and `Retry-After`. Every time is clamped to an hour, and a
 * value that is not a finite number is ignored: one absurd answer must not lock the client out.
 */
export function readRateLimit(head: ResponseHeaders, now: number): RateLimitHint | undefined {
  const policy = head.get('ratelimit-policy');
  const state = head.get('ratelimit');
  const prefix = head.get('ratelimit-remaining') === null ? 'x-ratelimit-' : 'ratelimit-';
  if (
    policy === null &&
    state === null &&
    head.get(`${prefix}remaining`) === null &&
    head.get('retry-after') === null
  )
    return undefined;
  const count = (name: string) => num(/^\s*([\d.]+)/.exec(head.get(prefix + name) ?? '')?.[1]);
  const hint: RateLimitHint = {};
  const limit = param(policy, 'q') ?? count('limit');
  const window = param(policy, 'w') ?? param(head.get(`${prefix}limit`), 'w');
  const remaining = param(state, 'r') ?? count('remaining');
  const reset = param(state, 't') ?? count('reset');
  const retryAfter = parseRetryAfter(head.get('retry-after'), now);
  if (limit !== undefined && limit > 0) hint.limit = Math.min(limit, MAX_LIMIT);
  if (window !== undefined && window > 0) hint.windowMs = bounded(window * 1000);
  if (remaining !== undefined) hint.remaining = remaining;
  if (reset !== undefined) hint.resetMs = resetIn(reset, now);
  if (retryAfter !== undefined && !Number.isNaN(retryAfter)) hint.retryAfterMs = bounded(retryAfter);
  return Object.keys(hint).length === 0 ? undefined : hint;
}
