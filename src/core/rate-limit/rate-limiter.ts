import type { Clock } from '../clock.js';
import type { Logger } from '../logging/logger.js';
import { type RateLimitHint, readRateLimit } from './rate-limit-headers.js';
import {
  MemoryRateLimitStore,
  type RateLimitStore,
  type RateLimitUpdate,
  type RateRule,
} from './rate-limit-store.js';

/** A response as the limiter reads it. */
export interface Observed {
  status: number;
  head: { get(name: string): string | null };
}

/** Thrown to a queued request whose wait would pass its bound; `waitedMs` is how long it had waited. */
export class RateLimitWaitExceeded extends Error {
  constructor(readonly waitedMs: number) {
    super(`waited ${waitedMs} ms for the rate limit`);
  }
}

interface Waiter {
  started: number;
  /** Clock time past which it stops waiting (`maxRateLimitWait`). */
  deadline: number;
  go(): void;
  fail(error: unknown): void;
}

// CUBIC, as AWS's adaptive retry mode applies it to a send rate: cut to 70% on throttling, then grow along
// a cubic curve back to (and past) the rate that was throttled.
const BETA = 0.7;
const SCALE = 0.4;
const MIN_RATE = 0.5;

/**
 * Paces one client's bearer requests (shared by its `withOptions()` clients). Until the first answer it sends
 * one request at a time; an answer without rate-limit headers opens the gate for good unless a 429 comes.
 * Learned limits (`RateLimit-Policy`, `*-Limit`) and throttling (CUBIC on bare 429s) become a GCRA rule run
 * against the store; `Retry-After` and spent budgets (`r=0`) push the store's clock forward.
 */
export class RateLimiter {
  readonly #key: string;
  readonly #store: RateLimitStore;
  readonly #local: RateLimitStore;
  readonly #clock: Clock;
  readonly #logger: Pick<Logger, 'debug' | 'warn'>;
  #mode: 'probe' | 'open' | 'paced' = 'probe';
  #probing = false;
  #rule: RateRule | undefined;
  #policy = false;
  #cubic: { max: number; at: number; k: number; rate: number } | undefined;
  #queue: Waiter[] = [];
  #pumping = false;
  #sync: Promise<void> = Promise.resolve();
  #storeWarned = false;
  // Requests sent in the current and the last whole second: the measured rate CUBIC starts from.
  #second = 0;
  #sent = 0;
  #lastSent = 0;

  constructor(options: {
    key: string;
    clock: Clock;
    logger: Pick<Logger, 'debug' | 'warn'>;
    store?: RateLimitStore | undefined;
  }) {
    this.#key = options.key;
    this.#local = new MemoryRateLimitStore();
    this.#store = options.store ?? this.#local;
    this.#clock = options.clock;
    this.#logger = options.logger;
  }

  /** `undefined` when the request may go now; else a promise for its turn, rejected past `maxWaitMs`. */
  turn(maxWaitMs: number, signal?: AbortSignal): Promise<void> | undefined {
    if (this.#mode === 'open' || (this.#mode === 'probe' && !this.#probing && this.#queue.length === 0)) {
      this.#probing = this.#mode === 'probe';
      this.#count();
      return undefined;
    }
    const started = this.#clock.now();
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        this.#queue = this.#queue.filter((other) => other !== waiter);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        started,
        deadline: started + maxWaitMs,
        go: () => {
          leave();
          this.#count();
          resolve();
        },
        fail: (error) => {
          leave();
          reject(error);
        },
      };
      const onAbort = () => waiter.fail(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      void this.#pump();
    });
  }

  /**
   * Learns from one answer (`undefined`: none came). Returns the ms a 429 asked to wait (`Retry-After`, or a
   * spent budget's reset), when it said.
   */
  observe(read: Observed | undefined): number | undefined {
    const now = this.#clock.now();
    if (this.#mode === 'probe') this.#probing = false;
    if (read === undefined) {
      if (this.#queue.length > 0) void this.#pump();
      return undefined;
    }
    const limited = read.status === 429;
    const hint = read.status >= 500 && !limited ? undefined : readRateLimit(read.head, now);
    if (hint === undefined && !limited) {
      if (this.#mode === 'probe') this.#mode = 'open';
      if (this.#cubic !== undefined && read.status < 400) this.#grow(now);
      if (this.#queue.length > 0) void this.#pump();
      return undefined;
    }
    if (this.#mode !== 'paced') this.#logger.debug(`rate limit: pacing requests (${this.#describe(hint)})`);
    this.#mode = 'paced';
    if (hint?.limit !== undefined) {
      const windowMs = hint.windowMs ?? Math.max(1000, hint.resetMs ?? 0);
      this.#rule = { intervalMs: windowMs / hint.limit, burst: hint.limit };
      this.#policy = true;
      this.#cubic = undefined;
    }
    let retryIn = limited
      ? (hint?.retryAfterMs ?? (hint?.remaining === 0 ? hint.resetMs : undefined))
      : undefined;
    if (limited && !this.#policy) this.#throttle(now);
    const rule = this.#rule;
    if (limited && retryIn === undefined && this.#policy && rule !== undefined)
      retryIn = rule.intervalMs * rule.burst;
    // `r` left now (GCRA: `r` slots free), none before the reset once spent or told to come back later.
    const left = hint?.remaining;
    const until = retryIn ?? (left === 0 ? hint?.resetMs : undefined);
    const tat =
      rule !== undefined && left !== undefined && left > 0
        ? now + (rule.burst - left) * rule.intervalMs
        : undefined;
    if (until !== undefined || tat !== undefined)
      this.#push({ until: until === undefined ? undefined : now + until, tat }, now);
    void this.#pump();
    return retryIn;
  }

  #push(update: RateLimitUpdate, now: number): void {
    this.#sync = this.#sync
      .then(() => this.#store.push(this.#key, update, now))
      .catch((error: unknown) => {
        this.#storeFailed(error);
        return this.#local.push(this.#key, update, now);
      });
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    let waited = false;
    try {
      while (this.#queue.length > 0) {
        await this.#sync;
        if (this.#mode === 'probe') {
          if (!this.#probing) {
            this.#probing = true;
            this.#queue[0]?.go();
          }
          return;
        }
        const rule = this.#rule;
        if (this.#mode === 'open' || rule === undefined) {
          for (const waiter of [...this.#queue]) waiter.go();
          return;
        }
        const now = this.#clock.now();
        // A store that fails (Redis down) is left for this client's own budget: the service still enforces.
        const wait = await this.#store.take(this.#key, rule, now).catch((error: unknown) => {
          this.#storeFailed(error);
          return this.#local.take(this.#key, rule, now);
        });
        if (wait <= 0) {
          this.#queue[0]?.go();
          continue;
        }
        // FIFO: whoever would pass its bound before this slot gives up now rather than at its bound.
        for (const waiter of [...this.#queue]) {
          if (waiter.deadline < now + wait) waiter.fail(new RateLimitWaitExceeded(now - waiter.started));
        }
        if (this.#queue.length === 0) break;
        if (!waited) this.#logger.debug(`rate limit: ${this.#queue.length} request(s) waiting their turn`);
        waited = true;
        await this.#clock.sleep(wait);
      }
    } finally {
      this.#pumping = false;
      if (waited) this.#logger.debug('rate limit: no request waiting any more');
    }
  }

  #storeFailed(error: unknown): void {
    if (!this.#storeWarned)
      this.#logger.warn(
        `rate limit store unavailable; pacing without it (${(error as Error)?.message ?? error})`,
      );
    this.#storeWarned = true;
  }

  #count(): void {
    const second = Math.floor(this.#clock.now() / 1000);
    if (second !== this.#second) {
      this.#lastSent = second === this.#second + 1 ? this.#sent : 0;
      this.#second = second;
      this.#sent = 0;
    }
    this.#sent += 1;
  }

  #throttle(now: number): void {
    const measured = Math.max(this.#sent, this.#lastSent, 1);
    const max = this.#cubic === undefined ? measured : Math.min(this.#cubic.rate, measured);
    const rate = Math.max(MIN_RATE, max * BETA);
    this.#cubic = { max, at: now, k: Math.cbrt((max * (1 - BETA)) / SCALE), rate };
    this.#rule = { intervalMs: 1000 / rate, burst: 1 };
  }

  #grow(now: number): void {
    const c = this.#cubic!;
    const grown = SCALE * ((now - c.at) / 1000 - c.k) ** 3 + c.max;
    c.rate = Math.max(MIN_RATE, Math.min(grown, 2 * Math.max(this.#sent, this.#lastSent, c.max)));
    this.#rule = { intervalMs: 1000 / c.rate, burst: 1 };
  }

  #describe(hint: RateLimitHint | undefined): string {
    if (hint?.limit !== undefined) return `${hint.limit} per ${hint.windowMs ?? 1000} ms`;
    return hint?.retryAfterMs !== undefined ? `Retry-After ${hint.retryAfterMs} ms` : 'throttled';
  }
}
