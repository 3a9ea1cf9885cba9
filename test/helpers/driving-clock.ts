import type { Clock } from '../../src/core/clock.js';
import { ManualClock } from '../../src/testing/index.js';

/** The client's view of a shared {@link ManualClock}, recording every wait the SDK asked for. */
export interface DrivingClock extends Clock {
  /** The lengths of the waits asked for, in order. */
  readonly waits: number[];
  /** Resolves with the length of the next wait asked for. */
  nextSleep(): Promise<number>;
}

/**
 * The client's view of the fake's clock (or of a clock of its own): `now()` is the shared clock's time,
 * and a sleep (a backoff wait, a `Retry-After`) completes at once by advancing the shared clock by its
 * length, so the server sees the same time pass, tokens age, and no test waits in real time. With
 * `hold: true` a sleep instead waits until the test advances the shared clock (to abort during a wait).
 */
export function drivingClock(
  clock: ManualClock = new ManualClock(Date.UTC(2025, 0, 1)),
  options: { hold?: boolean } = {},
): DrivingClock {
  const waits: number[] = [];
  const waiters: ((ms: number) => void)[] = [];
  return {
    waits,
    nextSleep: () => new Promise((resolve) => waiters.push(resolve)),
    now: () => clock.now(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
      for (const waiter of waiters.splice(0)) waiter(ms);
      if (options.hold === true) return clock.sleep(ms, signal);
      await clock.advance(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}
