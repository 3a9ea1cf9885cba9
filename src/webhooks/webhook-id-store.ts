/** Where a `webhook-id` stands: never seen, being handled right now, or handled already. */
export type WebhookIdState = 'new' | 'in_progress' | 'done';

/**
 * Remembers `webhook-id`s so a message delivered twice (a lost acknowledgement, a retry racing the first
 * attempt) reaches your handlers once. The default {@link MemoryWebhookIdStore} covers one process; for
 * several, use `RedisWebhookIdStore` from `@partner-equity/sdk/redis`, or implement it over a database table
 * or a KV store. A method that throws or rejects makes the receiver answer 5xx, so the service retries.
 *
 * @example
 * ```ts
 * // A minimal store on node-redis commands (RedisWebhookIdStore adds an in-progress lease, so
 * // a crashed handler does not block its id until the TTL ends).
 * const store: WebhookIdStore = {
 *   async claim(id, ttl) {
 *     if (await redis.set(`wh:${id}`, 'in_progress', { NX: true, EX: ttl })) return 'new';
 *     return (await redis.get(`wh:${id}`)) === 'done' ? 'done' : 'in_progress';
 *   },
 *   async complete(id, ttl) { await redis.set(`wh:${id}`, 'done', { EX: ttl }); },
 *   async release(id) { await redis.del(`wh:${id}`); },
 * };
 * ```
 */
export interface WebhookIdStore {
  /**
   * Atomically marks `id` as in progress when it is new, and says what it was before. Only a `'new'` answer
   * lets the handlers run.
   */
  claim(id: string, ttlSeconds: number): WebhookIdState | Promise<WebhookIdState>;
  /** The handlers succeeded: remember `id` as done for `ttlSeconds`. */
  complete(id: string, ttlSeconds: number): void | Promise<void>;
  /** The handlers failed: forget `id` so the sender's retry is handled. */
  release(id: string): void | Promise<void>;
}

/** Options of {@link MemoryWebhookIdStore}. */
export interface MemoryWebhookIdStoreOptions {
  /**
   * Most ids kept; past it the oldest are forgotten first.
   * @default 100_000
   */
  maxEntries?: number;
  /**
   * Current time in epoch milliseconds (or a `Date`).
   * @default Date.now
   */
  now?: () => number | Date;
}

/** In-process {@link WebhookIdStore}: ids expire after their TTL and the oldest go first beyond `maxEntries`. */
export class MemoryWebhookIdStore implements WebhookIdStore {
  // With one TTL, insertion order is expiry order (every write re-inserts), so pruning stops at the first
  // live entry; claim() still checks expiry itself in case TTLs vary.
  readonly #entries = new Map<string, { state: 'in_progress' | 'done'; expiresAt: number }>();
  readonly #maxEntries: number;
  readonly #now: () => number | Date;

  constructor(options: MemoryWebhookIdStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be >= 1.');
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Number of ids currently remembered. */
  get size(): number {
    this.#prune(this.#nowMs());
    return this.#entries.size;
  }

  claim(id: string, ttlSeconds: number): WebhookIdState {
    const now = this.#nowMs();
    this.#prune(now);
    const entry = this.#entries.get(id);
    if (entry && entry.expiresAt > now) return entry.state;
    this.#set(id, 'in_progress', now + ttlSeconds * 1000);
    return 'new';
  }

  complete(id: string, ttlSeconds: number): void {
    this.#set(id, 'done', this.#nowMs() + ttlSeconds * 1000);
  }

  release(id: string): void {
    this.#entries.delete(id);
  }

  #set(id: string, state: 'in_progress' | 'done', expiresAt: number): void {
    this.#entries.delete(id);
    this.#entries.set(id, { state, expiresAt });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  #prune(now: number): void {
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt > now) return;
      this.#entries.delete(id);
    }
  }

  #nowMs(): number {
    const now = this.#now();
    return typeof now === 'number' ? now : now.getTime();
  }
}
