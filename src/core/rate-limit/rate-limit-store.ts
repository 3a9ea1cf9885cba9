/** One request per `intervalMs`, up to `burst` at once after a quiet spell. */
export interface RateRule {
  intervalMs: number;
  burst: number;
}

/**
 * What the service said: nothing before `until`; the GCRA arrival time is at least `tat` (epoch ms). With
 * `replace`, the times are set to these, back as well as forward: the answer to a probe of a blocked budget
 * corrects what an earlier answer said. Both are at most an hour after `now`.
 */
export interface RateLimitUpdate {
  until?: number | undefined;
  tat?: number | undefined;
  replace?: boolean | undefined;
}

/**
 * Where a rate budget is kept: the client's own (default) or a fleet's (`RedisRateLimitStore`). Per key, a
 * GCRA theoretical arrival time and a time before which nothing may go, on the callers' clocks.
 */
export interface RateLimitStore {
  /** Takes a slot of `key`'s budget: 0 when taken, else the ms until one may be free (nothing taken). */
  take(key: string, rule: RateRule, now: number): Promise<number>;
  /** Moves `key`'s times forward (never back), or sets them with `update.replace`. */
  push(key: string, update: RateLimitUpdate, now: number): Promise<void>;
}

/** The client's own budget; the Redis store runs the same steps in Lua. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #keys = new Map<string, { tat: number; until: number }>();

  async take(key: string, { intervalMs, burst }: RateRule, now: number): Promise<number> {
    const state = this.#keys.get(key) ?? { tat: now, until: 0 };
    if (now < state.until) return Math.ceil(state.until - now);
    const start = Math.max(state.tat, now);
    const wait = start - (burst - 1) * intervalMs - now;
    if (wait > 0) return Math.ceil(wait);
    this.#keys.set(key, { tat: start + intervalMs, until: state.until });
    return 0;
  }

  async push(key: string, update: RateLimitUpdate, now: number): Promise<void> {
    const state = update.replace ? { tat: now, until: 0 } : (this.#keys.get(key) ?? { tat: now, until: 0 });
    const tat = Math.max(state.tat, update.tat ?? 0);
    this.#keys.set(key, { tat, until: Math.max(state.until, update.until ?? 0) });
  }
}
