import { parseRetryAfter } from '../request/retry-policy.js';

/** What a response said about the budget (each field only when it said so); times in ms. */
export interface RateLimitHint {
  limit?: number;
  windowMs?: number;
  remaining?: number;
  resetMs?: number;
  retryAfterMs?: number;
}

type Head = { get(name: string): string | null };
const first = (value: string | null) => value?.split(',')[0] ?? '';
const param = (value: string | null, name: string) =>
  num(new RegExp(`;\\s*${name}=([\\d.]+)`).exec(first(value))?.[1]);
const num = (text: string | undefined) =>
  text === undefined || Number.isNaN(Number(text)) ? undefined : Number(text);

/**
 * Reads `RateLimit-Policy`/`RateLimit` (draft-ietf-httpapi-ratelimit-headers, structured fields: the first
 * item), else `RateLimit-*` or `X-RateLimit-*` (a `Reset` over 10^9 is an epoch second), and `Retry-After`.
 */
export function readRateLimit(head: Head, now: number): RateLimitHint | undefined {
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
  if (limit !== undefined && limit > 0) hint.limit = limit;
  if (window !== undefined && window > 0) hint.windowMs = window * 1000;
  if (remaining !== undefined) hint.remaining = remaining;
  if (reset !== undefined) hint.resetMs = Math.max(0, reset > 1e9 ? reset * 1000 - now : reset * 1000);
  if (retryAfter !== undefined) hint.retryAfterMs = retryAfter;
  return Object.keys(hint).length === 0 ? undefined : hint;
}
