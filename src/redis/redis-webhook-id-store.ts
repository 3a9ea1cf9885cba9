import { randomBytes } from 'node:crypto';
import { describeRedacted } from '../auth/redacted.js';
import type { WebhookIdState, WebhookIdStore } from '../webhooks/webhook-id-store.js';
import { defineScript, RedisCommands } from './redis-commands.js';
import { RedisLease } from './redis-lease.js';
import { RedisStoreError } from './redis-store-error.js';
import {
  checkOptions,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KEY_PREFIX,
  type RedisStoreOptions,
  webhookIdStoreShape,
} from './redis-store-options.js';

/** Options of {@link RedisWebhookIdStore}. */
export interface RedisWebhookIdStoreOptions extends RedisStoreOptions {
  /**
   * How long, in real seconds, an id stays "in progress" once its handler's process stops renewing the claim
   * (it is renewed every third of this while the handler runs). A crashed handler blocks its id this long
   * at most; the service's next retry then runs it.
   * @default 60
   */
  inProgressTtlSeconds?: number | undefined;
}

/** How often, in real milliseconds, a `done` (or a late claim's release) that could not be written is tried again. */
const COMPLETE_RETRY_MS = 500;

/** `KEYS[1]` the id's key; `ARGV[1]` this claim's in-progress value; `ARGV[2]` its TTL in ms. */
const CLAIM = defineScript(
  'claim webhook id',
  `local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 'new'
end
if v == 'done' then return 'done' end
return 'in_progress'`,
);

/**
 * A {@link WebhookIdStore} on Redis, so a delivery that reaches two receivers runs its handlers once. An id is
 * claimed atomically (a Lua script: `new`, `in_progress` or `done`); while its handlers run, the claim is an
 * in-progress lease renewed every third of `inProgressTtlSeconds`, so a crashed handler does not block its id
 * for long; on success the id is stored as `done` for the receiver's `idTtlSeconds` (24 h by default, longer
 * than the service's retry schedule) — if Redis cannot take that write, the claim is kept alive and the write
 * retried every 500 ms until it lands; on failure the claim is deleted (only if still this one's) so the
 * retry runs the handlers. Keys: `<keyPrefix>webhook:<webhook-id>`, value `done` or `in_progress:<random>`.
 *
 * When Redis fails, `claim` rejects with a {@link RedisStoreError}: the receiver answers 5xx and the service
 * retries later, so nothing is lost and nothing runs twice. A claim that timed out but runs in Redis later
 * is released as soon as it lands, so it never blocks the retry. Configure Redis persistence (AOF) for this store:
 * a Redis that restarts empty forgets which ids were handled.
 *
 * @example
 * ```ts
 * import Redis from 'ioredis';
 * import { Webhook, WebhookReceiver } from '@partner-equity/sdk/webhooks';
 * import { RedisWebhookIdStore } from '@partner-equity/sdk/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const receiver = new WebhookReceiver(new Webhook({ secret }), {
 *   idStore: new RedisWebhookIdStore({ client: redis }),
 * });
 * ```
 */
export class RedisWebhookIdStore implements WebhookIdStore {
  readonly #commands: RedisCommands;
  readonly #prefix: string;
  readonly #leaseMs: number;
  /** This process's claims whose handlers are running. */
  readonly #claims = new Map<string, RedisLease>();
  /** Ids handled here whose `done` could not be written yet. */
  readonly #completing = new Set<string>();

  constructor(options: RedisWebhookIdStoreOptions) {
    checkOptions<RedisWebhookIdStoreOptions>('RedisWebhookIdStore options', webhookIdStoreShape, options);
    this.#commands = new RedisCommands(
      options.client,
      options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    );
    this.#prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.#leaseMs = (options.inProgressTtlSeconds ?? 60) * 1000;
  }

  async claim(id: string, ttlSeconds: number): Promise<WebhookIdState> {
    const key = this.#key(id);
    const value = `in_progress:${randomBytes(12).toString('base64url')}`;
    let state: unknown;
    try {
      state = await this.#commands.eval(CLAIM, [key], [value, String(this.#leaseMs)]);
    } catch (error) {
      this.#dropLateClaim(key, value);
      throw error;
    }
    if (state === 'new') {
      this.#claims.get(id)?.stop();
      this.#claims.set(
        id,
        new RedisLease(this.#commands, key, value, this.#leaseMs, Date.now() + ttlSeconds * 1000),
      );
      return 'new';
    }
    if (state === 'done' || state === 'in_progress') return state;
    throw new RedisStoreError('redis_error', 'Redis claim webhook id: unexpected reply');
  }

  async complete(id: string, ttlSeconds: number): Promise<void> {
    const claim = this.#take(id);
    try {
      await this.#markDone(id, ttlSeconds);
      claim?.stop();
    } catch (error) {
      // The handlers ran: keep the claim alive and record `done` as soon as Redis answers again, so a
      // duplicate that arrives meanwhile gets 409 (retried later) instead of running them a second time.
      if (claim !== undefined) this.#completeLater(id, ttlSeconds, claim);
      throw error;
    }
  }

  async release(id: string): Promise<void> {
    await this.#take(id)?.release();
  }

  /**
   * A claim whose answer never came (a timeout, a dropped connection) may still run in Redis later, and would
   * block the id for `inProgressTtlSeconds` with a claim nobody owns: the service's retries would get 409.
   * So it is released (deleted if it holds this claim's value). Sent on the same connection, the release
   * runs right after the late claim; while the client is not connected it is tried again until the claim
   * would have expired anyway.
   */
  #dropLateClaim(key: string, value: string): void {
    const lease = new RedisLease(this.#commands, key, value, this.#leaseMs, 0);
    const giveUpAt = Date.now() + this.#leaseMs;
    const attempt = () => {
      lease.release().catch((error: unknown) => {
        if ((error as RedisStoreError).code !== 'redis_unavailable' || Date.now() >= giveUpAt) return;
        setTimeout(attempt, COMPLETE_RETRY_MS).unref();
      });
    };
    attempt();
  }

  #markDone(id: string, ttlSeconds: number): Promise<unknown> {
    const ttl = String(Math.ceil(ttlSeconds));
    return this.#commands.send('complete webhook id', ['SET', this.#key(id), 'done', 'EX', ttl]);
  }

  #completeLater(id: string, ttlSeconds: number, claim: RedisLease): void {
    this.#completing.add(id);
    const giveUpAt = Date.now() + ttlSeconds * 1000;
    const finish = () => {
      clearInterval(timer);
      claim.stop();
      this.#completing.delete(id);
    };
    const timer = setInterval(() => {
      if (Date.now() >= giveUpAt) finish();
      else this.#markDone(id, ttlSeconds).then(finish, () => undefined);
    }, COMPLETE_RETRY_MS);
    timer.unref();
  }

  #take(id: string): RedisLease | undefined {
    const lease = this.#claims.get(id);
    this.#claims.delete(id);
    return lease;
  }

  #key(id: string): string {
    return `${this.#prefix}webhook:${id}`;
  }

  /** Harmless facts only: never the client. */
  toJSON(): Record<string, unknown> {
    return {
      keyPrefix: this.#prefix,
      inProgressTtlSeconds: this.#leaseMs / 1000,
      claimsRunning: this.#claims.size,
      completionsPending: this.#completing.size,
    };
  }

  /** What `util.inspect` (and `console.log`) show: the same harmless facts. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return describeRedacted('RedisWebhookIdStore', this.toJSON());
  }
}
