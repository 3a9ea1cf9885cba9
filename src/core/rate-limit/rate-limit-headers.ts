import { parseRetryAfter } from '../request/retry-policy.js';

/** What a response said about the client's budget; each field only when it said so. */
export interface RateLimitHint {
  /** Requests allowed per window (`q`, `*-Limit`). */
  limit?: number;
  windowMs?: number;
  /** Requests left in the current window (`r`, `*-Remaining`). */
  remaining?: number;
  /** Ms until the window resets (`t`, `*-Reset`). */
  resetMs?: number;
  /** `Retry-After`, in ms. */
  retryAfterMs?: number;
}

// The first item's parameters of a structured-field list (`"default";q=10;w=1, "burst";q=100`).
function params(value: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const match of (value?.split(',')[0] ?? '').matchAll(/;\s*([a-z]+)=(\d+(?:\.\d+)?)/g)) {
    out[match[1]!] = Number(match[2]);
  }
  return out;
}

function count(value: string | null): number | undefined {
  const found = value === null ? null : /^\s*(\d+(?:\.\d+)?)/.exec(value);
  return found === null ? undefined : Number(found[1]);
}

/**
 * Reads `RateLimit-Policy`/`RateLimit` (draft-ietf-httpapi-ratelimit-headers, structured fields), the older
 * `RateLimit-Limit/-Remaining/-Reset` and the common `X-RateLimit-*` (a `Reset` over 10^9 is an epoch
 * second), and `Retry-After`. `undefined` when the response said none of them.
 */
export function readRateLimit(
  head: { get(name: string): string | null },
  now: number,
): RateLimitHint | undefined {
  const policy = head.get('ratelimit-policy');
  const state = head.get('ratelimit');
  const prefix = head.get('ratelimit-remaining') !== null ? 'ratelimit-' : 'x-ratelimit-';
  const remaining = count(head.get(`${prefix}remaining`));
  const retryAfterMs = parseRetryAfter(head.get('retry-after'), now);
  if (policy === null && state === null && remaining === undefined && retryAfterMs === undefined)
    return undefined;
  const hint: RateLimitHint = {};
  const p = params(policy);
  const s = params(state);
  const limitHeader = head.get(`${prefix}limit`);
  const limit = p['q'] ?? count(limitHeader);
  const window = p['w'] ?? params(limitHeader)['w'];
  const reset = s['t'] ?? count(head.get(`${prefix}reset`));
  if (limit !== undefined && limit > 0) hint.limit = limit;
  if (window !== undefined && window > 0) hint.windowMs = window * 1000;
  const left = s['r'] ?? remaining;
  if (left !== undefined) hint.remaining = left;
  if (reset !== undefined) hint.resetMs = Math.max(0, reset > 1e9 ? reset * 1000 - now : reset * 1000);
  if (retryAfterMs !== undefined) hint.retryAfterMs = retryAfterMs;
  return hint;
}
