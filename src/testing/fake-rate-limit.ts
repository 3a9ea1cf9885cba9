import { HttpProblem } from './http-problem.js';

/** A per-client request budget: `limit` requests per `windowMs`, or text such as `'10/s'`, `'600/min'`. */
export type FakeRateLimitOption = { limit: number; windowMs: number } | string;

const UNITS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/** Reads `'10/s'`, `'100/10s'`, `'600/min'` (or passes an object through, checked). */
export function parseRateLimit(option: FakeRateLimitOption): { limit: number; windowMs: number } {
  let rule: { limit: number; windowMs: number } | undefined;
  if (typeof option === 'string') {
    const found = /^\s*(\d+)\s*\/\s*(\d*)\s*(ms|s|sec|m|min|h)\s*$/.exec(option);
    if (found !== null)
      rule = { limit: Number(found[1]), windowMs: Number(found[2] || 1) * UNITS[found[3]!]! };
  } else rule = option;
  if (rule === undefined || !(rule.limit >= 1) || !Number.isInteger(rule.limit) || !(rule.windowMs >= 1))
    throw new RangeError(`FakePartnerEquity: rateLimit must be like '10/s' or { limit: 10, windowMs: 1000 }`);
  return rule;
}

/**
 * The fake's per-client rate limit, as a service or its gateway enforces one: fixed windows on the fake's
 * clock, every answer with `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers,
 * structured fields) and the common `X-RateLimit-Limit/-Remaining/-Reset`; over the budget, a 429 with
 * `Retry-After` as well.
 */
export class FakeRateLimit {
  readonly #rule: { limit: number; windowMs: number };
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; used: number }>();
  readonly #answers = new WeakMap<Request, Record<string, string>>();
  /** 429s answered so far. */
  limited = 0;

  constructor(option: FakeRateLimitOption, now: () => number) {
    this.#rule = parseRateLimit(option);
    this.#now = now;
  }

  /** Counts `request` against `clientId`'s window; throws the 429 once the window is spent. */
  admit(request: Request, clientId: string): void {
    const { limit, windowMs } = this.#rule;
    const now = this.#now();
    const start = Math.floor(now / windowMs) * windowMs;
    let window = this.#windows.get(clientId);
    if (window === undefined || window.start !== start) {
      window = { start, used: 0 };
      this.#windows.set(clientId, window);
    }
    const allowed = window.used < limit;
    if (allowed) window.used += 1;
    const reset = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    const remaining = limit - window.used;
    const headers: Record<string, string> = {
      'ratelimit-policy': `"default";q=${limit};w=${Math.ceil(windowMs / 1000)}`,
      ratelimit: `"default";r=${remaining};t=${reset}`,
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(reset),
    };
    this.#answers.set(request, headers);
    if (!allowed) {
      this.limited += 1;
      throw new HttpProblem(
        429,
        'rate_limited',
        `Rate limit of ${limit} requests per ${windowMs} ms exceeded`,
        {
          headers: { ...headers, 'retry-after': String(reset) },
        },
      );
    }
  }

  /** The rate-limit headers of the answer to `request`, if it was counted. */
  headersFor(request: Request): Record<string, string> | undefined {
    return this.#answers.get(request);
  }
}
