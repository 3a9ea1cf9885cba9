import type { Clock } from '../clock.js';
import type { Logger } from '../logging/logger.js';
import type { ResponseHeaders } from '../transport/transport.js';
import {
  MemoryRateLimitStore,
  type RateLimitStore,
  type RateLimitUpdate,
  type RateRule,
} from './rate-limit-store.js';
import { MAX_LEARNED_MS, readRateLimit } from './read-rate-limit.js';

interface Waiter {
  started: number;
  deadline: number;
  go(): void;
  fail(error: unknown): void;
}

export class WaitExceeded extends Error {
  constructor(readonly waitedMs: number) {
    super('rate limit wait exceeded');
  }
}

// CUBIC on the send rate, as AWS's adaptive retry mode: cut to 70% when throttled, then grow back along a cubic.
const BETA = 0.7;
const SCALE = 0.4;
const MIN_RATE = 0.5;
/** Longest the first request goes alone: a slow first answer must not hold a batch up for long. */
const PROBE_MS = 1000;
/** While the budget says "not yet" for longer, one request goes this long after the last: its answer rules. */
export const BLOCKED_PROBE_MS = 60_000;
/** How long a store that failed (an error, no answer in the caller's bound, a reply that is not a wait) is left alone. */
export const STORE_RETRY_MS = 30_000;
/** A store answer slower than the caller's bound counts as a fault only past this (a 0 ms bound never fits one). */
const STORE_PATIENCE_MS = 100;

/**
 * Paces one client's bearer requests (its `withOptions()` clients share it). Until the first answer (for
 * at most a second) one request goes at a time; an answer without rate-limit headers lets every request go at once until a 429.
 * A learned limit (or CUBIC after bare 429s) is a GCRA rule run against the store, in FIFO order. What it
 * learns is bounded (an hour at most), a blocked budget lets a probe through every {@link BLOCKED_PROBE_MS},
 * and a failing store is left for this client's own budget for {@link STORE_RETRY_MS}.
 */
export class RateLimiter {
  readonly #key: string;
  readonly #local = new MemoryRateLimitStore();
  readonly #store: RateLimitStore;
  readonly #clock: Clock;
  readonly #logger: Pick<Logger, 'debug' | 'warn'>;
  #mode: 'probe' | 'open' | 'paced' = 'probe';
  #probing = false;
  #probeTimer: AbortController | undefined;
  #rule: RateRule | undefined;
  #policy = false;
  #cubic: { max: number; at: number; k: number; rate: number } | undefined;
  #queue: Waiter[] = [];
  #pumping = false;
  // When the pump sleeps: the time it wakes, and how to wake it early.
  #wakeAt = 0;
  #wake: AbortController | undefined;
  // The shared store's commands go in order (takes write too); close() waits for those sent.
  #sync: Promise<unknown> = Promise.resolve();
  readonly #pending = new Set<Promise<unknown>>();
  // Once closed: the error every turn fails with.
  #closed: unknown;
  #storeDownUntil = 0;
  #storeWarned = false;
  // The last time a request went, and whether the last one went as a probe of a blocked budget.
  #lastGo = Number.NEGATIVE_INFINITY;
  #replacing = false;
  // Requests sent this second and the last one: the rate CUBIC starts from.
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
    this.#store = options.store ?? this.#local;
    this.#clock = options.clock;
    this.#logger = options.logger;
  }

  /** `undefined` when the request may go now; else a promise of its turn (rejected past `maxWaitMs`). */
  turn(maxWaitMs: number, signal?: AbortSignal): Promise<void> | undefined {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    if (this.#mode === 'open' || (this.#mode === 'probe' && !this.#probing && this.#queue.length === 0)) {
      this.#probing = this.#mode === 'probe';
      this.#count();
      return undefined;
    }
    const started = this.#clock.now();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => waiter.fail(signal?.reason);
      const settle = (done: () => void) => {
        this.#queue = this.#queue.filter((other) => other !== waiter);
        signal?.removeEventListener('abort', onAbort);
        done();
      };
      const waiter: Waiter = {
        started,
        deadline: started + maxWaitMs,
        go: () =>
          settle(() => {
            this.#count();
            resolve();
          }),
        fail: (error) => settle(() => reject(error)),
      };
      // FIFO: behind a pump asleep past this call's bound, its turn cannot come in time.
      if (this.#pumping && this.#wakeAt > waiter.deadline) return reject(new WaitExceeded(0));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.#mode === 'probe' && this.#probeTimer === undefined) {
        this.#probeTimer = new AbortController();
        this.#clock.sleep(PROBE_MS, this.#probeTimer.signal).then(
          () => {
            if (this.#mode === 'probe') this.#mode = 'open';
            void this.#pump();
          },
          () => undefined,
        );
      }
      this.#queue.push(waiter);
      void this.#pump();
    });
  }

  /**
   * Learns from an answer (`undefined`: none came); returns the ms a 429 asked to wait, when it said. A wait
   * longer than the caller's `maxWaitMs` is not imposed on the other requests (the caller gives up on it).
   * The answer to a probe of a blocked budget replaces what was learned before, so a sane one undoes a bad one.
   */
  observe(
    read: { status: number; headers: ResponseHeaders } | undefined,
    maxWaitMs = Infinity,
  ): number | undefined {
    const now = this.#clock.now();
    if (this.#mode === 'probe') this.#probing = false;
    const replace = this.#replacing && read !== undefined && read.status < 500;
    if (read !== undefined) this.#replacing = false;
    // abort() builds its default reason (a DOMException) even when already aborted: check first.
    if (read !== undefined && this.#probeTimer?.signal.aborted === false) this.#probeTimer.abort();
    const limited = read?.status === 429;
    const hint =
      read === undefined || (read.status >= 500 && !limited) ? undefined : readRateLimit(read.headers, now);
    let retryIn: number | undefined;
    if (hint === undefined && !limited) {
      if (replace) this.#forget();
      if (read !== undefined && this.#mode === 'probe') this.#mode = 'open';
      if (this.#cubic !== undefined && read !== undefined && read.status < 400) this.#grow(now);
    } else {
      if (this.#mode !== 'paced')
        this.#logger.debug(
          `rate limit: pacing requests (${hint?.limit === undefined ? 'throttled' : `${hint.limit} per ${hint.windowMs ?? 1000} ms`})`,
        );
      this.#mode = 'paced';
      if (hint?.limit !== undefined) {
        this.#rule = {
          intervalMs: (hint.windowMs ?? Math.max(1000, hint.resetMs ?? 0)) / hint.limit,
          burst: hint.limit,
        };
        this.#policy = true;
        this.#cubic = undefined;
      } else if (limited && !this.#policy) this.#throttle(now);
      const rule = this.#rule;
      const left = hint?.remaining;
      // A 429 waits for what it said, else for the window; `r` left means `r` slots free now, 0 none until `t`.
      retryIn = limited
        ? (hint?.retryAfterMs ??
          (left === 0 ? hint?.resetMs : undefined) ??
          (this.#policy && rule ? rule.intervalMs * rule.burst : undefined))
        : undefined;
      const told = retryIn ?? (left === 0 ? hint?.resetMs : undefined);
      const until = told !== undefined && told <= maxWaitMs ? told : undefined;
      const update: RateLimitUpdate = { until: until === undefined ? undefined : now + until };
      if (rule !== undefined && left !== undefined && left > 0)
        update.tat = now + (rule.burst - left) * rule.intervalMs;
      // A probe's answer rules whatever the caller's bound: a spent budget stays spent for everyone.
      if (replace) this.#push({ until: now + (told ?? 0), tat: update.tat ?? now, replace }, now);
      else if (update.until !== undefined || update.tat !== undefined) this.#push(update, now);
    }
    if (this.#queue.length > 0) void this.#pump();
    return retryIn;
  }

  /**
   * Stops for good: queued calls fail with `reason`, and nothing more goes to the store. Resolves once the
   * store's pending commands have (each within the store's own timeout).
   */
  async close(reason: Error): Promise<void> {
    this.#closed ??= reason;
    for (const waiter of [...this.#queue]) waiter.fail(reason);
    this.#wake?.abort();
    if (this.#probeTimer?.signal.aborted === false) this.#probeTimer.abort();
    await Promise.all(this.#pending);
  }

  // One command to the shared store, after those before it; none starts once closed.
  #command<T>(send: () => Promise<T>): Promise<T | undefined> {
    const run = this.#sync.then(() => {
      if (this.#closed !== undefined) return undefined;
      const sent = send();
      const settled: Promise<unknown> = sent.then(
        () => this.#pending.delete(settled),
        () => this.#pending.delete(settled),
      );
      this.#pending.add(settled);
      return sent;
    });
    this.#sync = run.catch(() => undefined);
    return run;
  }

  // A probe's answer without any rate-limit header: the service no longer paces us; start over, open.
  #forget(): void {
    [this.#rule, this.#policy, this.#cubic, this.#mode] = [undefined, false, undefined, 'open'];
    this.#push({ until: 0, tat: this.#clock.now(), replace: true }, this.#clock.now());
  }

  // The client's own budget learns everything at once (its steps run synchronously), so a store that fails
  // leaves it knowing what this client was told; a shared store gets it in order.
  #push(update: RateLimitUpdate, now: number): void {
    void this.#local.push(this.#key, update, now);
    if (this.#shared())
      this.#command(() => this.#store.push(this.#key, update, now)).catch((error: unknown) =>
        this.#storeFault(error),
      );
    // A probe's answer may open the budget: the pump looks again instead of sleeping on the old answer.
    if (update.replace) this.#wake?.abort();
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    let waited = false;
    try {
      while (this.#queue.length > 0) {
        const rule = this.#rule;
        if (this.#mode === 'probe') {
          if (!this.#probing) this.#queue[0]?.go();
          this.#probing = true;
          return;
        }
        if (this.#mode === 'open' || rule === undefined) {
          for (const waiter of [...this.#queue]) waiter.go();
          return;
        }
        const head = this.#queue[0] as Waiter;
        const now = this.#clock.now();
        let wait = await this.#take(rule, now, head.deadline - now);
        // A budget blocked for long lets one request through every BLOCKED_PROBE_MS: its answer rules.
        if (wait > BLOCKED_PROBE_MS) {
          wait = Math.max(0, this.#lastGo + BLOCKED_PROBE_MS - now);
          if (wait === 0) {
            this.#replacing = true;
            this.#logger.debug('rate limit: budget blocked; one request goes to learn it again');
          }
        }
        if (wait <= 0) {
          this.#queue[0]?.go();
          continue;
        }
        // FIFO: whoever would pass its bound before this slot gives up now rather than later.
        for (const waiter of [...this.#queue])
          if (waiter.deadline < now + wait) waiter.fail(new WaitExceeded(now - waiter.started));
        if (this.#queue.length === 0) break;
        if (!waited) this.#logger.debug(`rate limit: ${this.#queue.length} request(s) waiting their turn`);
        waited = true;
        this.#wakeAt = now + wait;
        this.#wake = new AbortController();
        await this.#clock.sleep(wait, this.#wake.signal).catch(() => undefined);
      }
    } finally {
      this.#pumping = false;
      this.#wakeAt = 0;
      if (waited) this.#logger.debug('rate limit: no request waiting any more');
    }
  }

  /**
   * A slot from the store, within `boundMs` (the first waiter's bound). A store that fails, answers late or
   * answers something that is not a wait is left for this client's own budget for a while (the service
   * still enforces its limit, so failing open costs at most a few 429s).
   */
  async #take(rule: RateRule, now: number, boundMs: number): Promise<number> {
    if (!this.#shared()) return this.#local.take(this.#key, rule, now);
    const timer = new AbortController();
    const late = this.#clock.sleep(Math.min(Math.max(0, boundMs), MAX_LEARNED_MS), timer.signal).then(() => {
      throw new WaitExceeded(boundMs);
    });
    late.catch(() => undefined);
    try {
      const wait = await Promise.race([this.#command(() => this.#store.take(this.#key, rule, now)), late]);
      if (typeof wait !== 'number' || !Number.isFinite(wait) || wait < 0)
        throw new TypeError(
          `the store answered ${typeof wait === 'number' ? wait : typeof wait}, not a wait in ms`,
        );
      if (this.#storeWarned) this.#logger.debug('rate limit store answers again');
      this.#storeWarned = false;
      return Math.min(wait, MAX_LEARNED_MS);
    } catch (error) {
      // Too slow for a caller in a hurry is not a fault of the store: that one slot is taken here.
      if (!(error instanceof WaitExceeded && boundMs < STORE_PATIENCE_MS)) this.#storeFault(error);
      return this.#local.take(this.#key, rule, now);
    } finally {
      timer.abort();
    }
  }

  #shared(): boolean {
    return (
      this.#store !== this.#local && this.#closed === undefined && this.#clock.now() >= this.#storeDownUntil
    );
  }

  #storeFault(error: unknown): void {
    if (this.#closed !== undefined) return;
    this.#storeDownUntil = this.#clock.now() + STORE_RETRY_MS;
    // Commands after the break do not queue behind one that may never answer.
    this.#sync = Promise.resolve();
    // The cause's code (a RedisStoreError's `redis_timeout`…) and message, as the store gave them.
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const why =
      error instanceof WaitExceeded
        ? `no answer within ${error.waitedMs} ms`
        : `${typeof code === 'string' ? `${code}: ` : ''}${String(message)}`;
    const line = `rate limit store unavailable; pacing without it for ${STORE_RETRY_MS / 1000} s (${why})`;
    if (this.#storeWarned) this.#logger.debug(line);
    else this.#logger.warn(line);
    this.#storeWarned = true;
  }

  #count(): void {
    this.#lastGo = this.#clock.now();
    const second = Math.floor(this.#lastGo / 1000);
    if (second !== this.#second) {
      this.#lastSent = second === this.#second + 1 ? this.#sent : 0;
      [this.#second, this.#sent] = [second, 0];
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
}
