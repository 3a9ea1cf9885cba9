/** A pace for one budget: one request per `intervalMs`, with up to `burst` at once after a quiet spell. */
export interface RateRule {
  intervalMs: number;
  burst: number;
}

/** What a response said about the shared budget: spent until `until`; used up to arrival time `tat`. */
export interface RateLimitUpdate {
  /** No request before this time (epoch ms): `Retry-After`, or a spent window's reset. */
  until?: number | undefined;
  /** The GCRA theoretical arrival time is at least this (few requests left in the window). */
  tat?: number | undefined;
}

/**
 * Where a rate budget is kept: in the client (the default) or shared by a fleet (`RedisRateLimitStore` from
 * `@partner-equity/sdk/redis`). Both keep, per key, a GCRA "theoretical arrival time" and a time before
 * which nothing may be sent; times are epoch ms on the callers' clocks.
 */
export interface RateLimitStore {
  /** Takes a slot of `key`'s budget: 0 when taken, else the ms until one may be free (nothing taken). */
  take(key: string, rule: RateRule, now: number): Promise<number>;
  /** Moves `key`'s times forward (never back) to what the service said. */
  push(key: string, update: RateLimitUpdate, now: number): Promise<void>;
}

/** The GCRA step both stores run (the Redis one in Lua): the wait, or the new arrival time. */
export function gcraTake(
  state: { tat: number; until: number },
  rule: RateRule,
  now: number,
): { wait: number; tat: number } {
  if (now < state.until) return { wait: Math.ceil(state.until - now), tat: state.tat };
  const start = Math.max(state.tat, now);
  const wait = start - (rule.burst - 1) * rule.intervalMs - now;
  return wait > 0 ? { wait: Math.ceil(wait), tat: state.tat } : { wait: 0, tat: start + rule.intervalMs };
}

/** The client's own budget, in memory. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #keys = new Map<string, { tat: number; until: number }>();

  async take(key: string, rule: RateRule, now: number): Promise<number> {
    const state = this.#keys.get(key) ?? { tat: now, until: 0 };
    const { wait, tat } = gcraTake(state, rule, now);
    this.#keys.set(key, { tat, until: state.until });
    return wait;
  }

  async push(key: string, update: RateLimitUpdate, now: number): Promise<void> {
    const state = this.#keys.get(key) ?? { tat: now, until: 0 };
    this.#keys.set(key, {
      tat: Math.max(state.tat, update.tat ?? 0),
      until: Math.max(state.until, update.until ?? 0),
    });
  }
}
