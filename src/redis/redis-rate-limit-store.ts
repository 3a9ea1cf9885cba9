import type { RateLimitStore, RateLimitUpdate, RateRule } from '../core/rate-limit/rate-limit-store.js';
import { RATE_LIMIT } from './rate-limit-script.js';
import { RedisCommands } from './redis-commands.js';
import { RedisStoreError } from './redis-store-error.js';
import {
  checkOptions,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KEY_PREFIX,
  type RedisStoreOptions,
  redisStoreShape,
} from './redis-store-options.js';

/** Options of {@link RedisRateLimitStore}. */
export type RedisRateLimitStoreOptions = RedisStoreOptions;

/**
 * A rate budget shared by every instance on one Redis: pass it as `rateLimitStore` to each client, and the
 * fleet paces itself to the service's limit together instead of each instance spending it alone. One atomic
 * Lua script keeps a GCRA per client (`<keyPrefix>ratelimit:<clientId>@<baseUrl>`); what one instance learns
 * (a `Retry-After`, a spent window) holds all of them back. Times are the instances' clocks: keep them in
 * sync (NTP).
 *
 * When Redis fails (an error, no answer within the waiting caller's bound, a reply that is not a number),
 * each client warns and paces on its own for 30 s before it asks Redis again (the service still enforces
 * its limit, so failing open costs at most a few 429s). Nothing stored is ever more than an hour ahead, and
 * every key expires within a day.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { PartnerEquity } from '@partner-equity/sdk';
 * import { RedisRateLimitStore } from '@partner-equity/sdk/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * const client = new PartnerEquity({ ...credentials, rateLimitStore: new RedisRateLimitStore({ client: redis }) });
 * ```
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #commands: RedisCommands;
  readonly #prefix: string;

  constructor(options: RedisRateLimitStoreOptions) {
    checkOptions<RedisRateLimitStoreOptions>('RedisRateLimitStore options', redisStoreShape, options);
    this.#commands = new RedisCommands(
      options.client,
      options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    );
    this.#prefix = `${options.keyPrefix ?? DEFAULT_KEY_PREFIX}ratelimit:`;
  }

  /** @throws RedisStoreError when Redis cannot answer, or answers something that is not a wait in ms. */
  async take(key: string, rule: RateRule, now: number): Promise<number> {
    const args = ['take', String(now), String(rule.intervalMs), String(rule.burst)];
    const reply = await this.#commands.eval(RATE_LIMIT, [this.#prefix + key], args);
    const wait = typeof reply === 'number' || typeof reply === 'bigint' ? Number(reply) : Number.NaN;
    if (!Number.isFinite(wait) || wait < 0)
      throw new RedisStoreError('redis_error', `Redis rate limit: a ${typeof reply} reply, not a wait in ms`);
    return wait;
  }

  /** @throws RedisStoreError when Redis cannot answer. */
  async push(key: string, update: RateLimitUpdate, now: number): Promise<void> {
    const args = ['push', String(now), String(update.until ?? 0), String(update.tat ?? 0)];
    if (update.replace) args.push('1');
    await this.#commands.eval(RATE_LIMIT, [this.#prefix + key], args);
  }
}
