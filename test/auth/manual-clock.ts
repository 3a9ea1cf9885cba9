import type { Clock } from '../../src/core/clock.js';

/**
 * Simulated time for the auth tests: `now()` only moves when the test calls `advance()` or when the code
 * under test sleeps (a sleep passes instantly and moves the clock by its length, which is recorded).
 */
export class ManualClock implements Clock {
  #now: number;
  /** Every sleep the code under test asked for, in ms. */
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2030, 0, 1, 9, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    this.#now += ms;
    return Promise.resolve();
  }
}
