import type { Clock } from '../../src/core/clock.js';

/** A sleep the code under test asked for. */
export interface RecordedSleep {
  ms: number;
  /** Clock time when it was asked for. */
  at: number;
}

/**
 * A {@link Clock} for tests: time moves only when a sleep completes or `advance()` is called. By default a
 * sleep completes at once (moving `now` forward by its length), so retry loops run without waiting; with
 * `hold: true` sleeps stay pending until `advance()` passes their end — for aborting during a wait.
 * Every requested sleep is recorded in `sleeps`.
 */
export class ManualClock implements Clock {
  #now: number;
  readonly #hold: boolean;
  readonly sleeps: RecordedSleep[] = [];
  #pending: { until: number; resolve: () => void }[] = [];
  #waiters: ((sleep: RecordedSleep) => void)[] = [];

  constructor(options: { start?: number; hold?: boolean } = {}) {
    this.#now = options.start ?? Date.UTC(2025, 0, 1);
    this.#hold = options.hold ?? false;
  }

  now(): number {
    return this.#now;
  }

  /** The lengths of the recorded sleeps. */
  get waits(): number[] {
    return this.sleeps.map((sleep) => sleep.ms);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const recorded = { ms, at: this.#now };
    this.sleeps.push(recorded);
    for (const waiter of this.#waiters.splice(0)) waiter(recorded);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.#hold) {
      this.#now += ms;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        until: this.#now + ms,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.#pending = this.#pending.filter((item) => item !== entry);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.push(entry);
    });
  }

  /** Resolves when the next sleep is requested. */
  nextSleep(): Promise<RecordedSleep> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Moves time forward, completing the held sleeps that end by then. */
  advance(ms: number): void {
    this.#now += ms;
    const due = this.#pending.filter((item) => item.until <= this.#now);
    this.#pending = this.#pending.filter((item) => item.until > this.#now);
    for (const item of due) item.resolve();
  }
}
