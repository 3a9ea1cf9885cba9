import type { Clock } from '../clock.js';
import type { Logger } from '../logging/logger.js';
import { parseRetryAfter } from '../request/retry-policy.js';
import type { ResponseHeaders } from '../transport/transport.js';
import {
  MemoryRateLimitStore,
  type RateLimitStore,
  type RateLimitUpdate,
  type RateRule,
} from './rate-limit-store.js';

/** What a response said about the budget (each field only when it said so); times in ms. */
interface RateLimitHint {
  limit?: number;
  windowMs?: number;
  remaining?: number;
  resetMs?: number;
  retryAfterMs?: number;
}

const first = (value: string | null) => value?.split(',')[0] ?? '';
const param = (value: string | null, name: string) =>
  num(new RegExp(`;\\s*${name}=([\\d.]+)`).exec(first(value))?.[1]);
const num = (text: string | undefined) =>
  text === undefined || Number.isNaN(Number(text)) ? undefined : Number(text);

/**
 * Reads `RateLimit-Policy`/`RateLimit` (draft-ietf-httpapi-ratelimit-headers, structured fields: the first
 * item), else `RateLimit-*` or `X-RateLimit-*` (a `Reset` over 10^9 is an epoch second), and `Retry-After`.
 */
function readRateLimit(head: ResponseHeaders, now: number): RateLimitHint | undefined {
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

/**
 * Paces one client's bearer requests (its `withOptions()` clients share it). Until the first answer (for
 * at most a second) one request goes at a time; an answer without rate-limit headers lets every request go at once until a 429.
 * A learned limit (or CUBIC after bare 429s) is a GCRA rule run against the store, in FIFO order.
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
  #sync: Promise<void> = Promise.resolve();
  #storeWarned = false;
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
   */
  observe(
    read: { status: number; headers: ResponseHeaders } | undefined,
    maxWaitMs = Infinity,
  ): number | undefined {
    const now = this.#clock.now();
    if (this.#mode === 'probe') this.#probing = false;
    // abort() builds its default reason (a DOMException) even when already aborted: check first.
    if (read !== undefined && this.#probeTimer?.signal.aborted === false) this.#probeTimer.abort();
    const limited = read?.status === 429;
    const hint =
      read === undefined || (read.status >= 500 && !limited) ? undefined : readRateLimit(read.headers, now);
    if (hint === undefined && !limited) {
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
      const retryIn = limited
        ? (hint?.retryAfterMs ??
          (left === 0 ? hint?.resetMs : undefined) ??
          (this.#policy && rule ? rule.intervalMs * rule.burst : undefined))
        : undefined;
      const told = retryIn ?? (left === 0 ? hint?.resetMs : undefined);
      const until = told !== undefined && told <= maxWaitMs ? told : undefined;
      const update: RateLimitUpdate = { until: until === undefined ? undefined : now + until };
      if (rule !== undefined && left !== undefined && left > 0)
        update.tat = now + (rule.burst - left) * rule.intervalMs;
      if (update.until !== undefined || update.tat !== undefined) {
        this.#sync = this.#sync
          .then(() => this.#store.push(this.#key, update, now))
          .catch((error: unknown) => this.#fallback(error, () => this.#local.push(this.#key, update, now)));
      }
      if (this.#queue.length > 0) void this.#pump();
      return retryIn;
    }
    if (this.#queue.length > 0) void this.#pump();
    return undefined;
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    let waited = false;
    try {
      while (this.#queue.length > 0) {
        await this.#sync;
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
        const now = this.#clock.now();
        // A store that fails (Redis down) is left for this client's own budget: the service still enforces.
        const wait = await this.#store
          .take(this.#key, rule, now)
          .catch((error: unknown) => this.#fallback(error, () => this.#local.take(this.#key, rule, now)));
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
        await this.#clock.sleep(wait);
      }
    } finally {
      this.#pumping = false;
      if (waited) this.#logger.debug('rate limit: no request waiting any more');
    }
  }

  #fallback<T>(error: unknown, local: () => Promise<T>): Promise<T> {
    if (!this.#storeWarned)
      this.#logger.warn(`rate limit store unavailable; pacing without it (${(error as Error)?.message})`);
    this.#storeWarned = true;
    return local();
  }

  #count(): void {
    const second = Math.floor(this.#clock.now() / 1000);
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
