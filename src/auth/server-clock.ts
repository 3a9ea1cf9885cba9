import type { Clock } from '../core/clock.js';

/** Drift below this is noise: a `Date` header has whole-second precision. */
const ADOPT_THRESHOLD_MS = 1000;

/**
 * The server's clock as seen from here: the local {@link Clock} plus an offset learned from the `Date`
 * headers of token responses, so assertions carry an `iat` the server accepts even when this machine's clock
 * is off by more than the API's few seconds of tolerance.
 */
export class ServerClock {
  readonly #clock: Clock;
  #offsetMs = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The current offset (server minus local), in milliseconds. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** The server's time now, by the current estimate. */
  now(): number {
    return this.#clock.now() + this.#offsetMs;
  }

  /**
   * Learns from a `Date` header seen now. Returns how far the server's clock is from the current estimate
   * (positive: the server is ahead), and adopts the new offset when that is more than a second.
   */
  observe(serverDate: number): number {
    // The header truncates to the second, so the server's time is on average half a second later than it says.
    const offset = serverDate + 500 - this.#clock.now();
    const drift = offset - this.#offsetMs;
    if (Math.abs(drift) > ADOPT_THRESHOLD_MS) this.#offsetMs = offset;
    return drift;
  }
}
