import type { Clock } from '../core/clock.js';

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

/** Cancels a timer made by {@link ManualClock.schedule}; cancelling twice is harmless. */
export type CancelTimer = () => void;

/**
 * A clock that moves only when told to. It implements the SDK's {@link Clock}, so the same instance can
 * drive the SDK (`new PartnerEquity({ clock })`) and the fake API: token expiry, idempotency retention,
 * webhook retries and the reconciler all read it, and nothing in a test ever sleeps for real.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(Date.parse('2025-01-01T00:00:00Z'));
 * const woke = clock.sleep(1_000);
 * await clock.advance(1_000); // `woke` resolves; timers due on the way fire in time order
 * ```
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: Timer[] = [];
  #settle: () => Promise<void> = macrotask;
  #queue: Promise<void> = Promise.resolve();

  /** @param startMs Epoch milliseconds to start at. @default Date.now() */
  constructor(startMs: number = Date.now()) {
    if (!Number.isFinite(startMs)) throw new RangeError('ManualClock: startMs must be a finite number');
    this.#now = startMs;
  }

  /** Milliseconds since the Unix epoch on this clock. */
  now(): number {
    return this.#now;
  }

  /**
   * Resolves once the clock has been advanced by `ms`; `ms <= 0` resolves at once (a backoff of zero
   * must not wait for a test to advance time). Rejects with the signal's reason on abort.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!(ms > 0)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        cancel();
        reject(signal?.reason);
      };
      const cancel = this.schedule(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Runs `callback` once this clock reaches `now() + delayMs`. Returns a function that cancels it. */
  schedule(delayMs: number, callback: () => void): CancelTimer {
    const timer: Timer = { at: this.#now + Math.max(0, delayMs), seq: this.#seq++, fire: callback };
    this.#timers.push(timer);
    this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** How many timers and sleeps are waiting. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /**
   * Moves time forward by `ms`, firing every timer due on the way in time order. Before each next timer the
   * clock lets the work the previous one started settle (for the fake: in-flight webhook deliveries), so a
   * retry that a failed delivery schedules inside the window fires in the same call. Await it.
   */
  advance(ms: number): Promise<void> {
    if (!(ms >= 0)) return Promise.reject(new RangeError('ManualClock.advance: ms must be >= 0'));
    return this.#enqueue(() => this.#runUntil(this.#now + ms));
  }

  /**
   * Sets the time to `epochMs`. Forward, it behaves like {@link advance}; backward, it only moves the
   * clock (no timer fires, pending timers keep their due times).
   */
  set(epochMs: number): Promise<void> {
    if (!Number.isFinite(epochMs)) return Promise.reject(new RangeError('ManualClock.set: finite ms'));
    return this.#enqueue(async () => {
      if (epochMs <= this.#now) {
        this.#now = epochMs;
        return;
      }
      await this.#runUntil(epochMs);
    });
  }

  /**
   * Installs what "settled" means between timers (the fake API passes its webhook flush).
   * @internal
   */
  setSettle(settle: () => Promise<void>): void {
    this.#settle = async () => {
      await macrotask();
      await settle();
    };
  }

  async #runUntil(target: number): Promise<void> {
    for (;;) {
      const next = this.#timers[0];
      if (next === undefined || next.at > target) break;
      this.#timers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.fire();
      await this.#settle();
    }
    this.#now = Math.max(this.#now, target);
    await this.#settle();
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

function macrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
