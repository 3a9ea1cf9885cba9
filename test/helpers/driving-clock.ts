import type { Clock } from '../../src/core/clock.js';
import type { ManualClock } from '../../src/testing/index.js';

/**
 * The client's view of the fake's clock: `now()` is the fake's time, and a sleep (a backoff wait, a
 * `Retry-After`) completes at once by advancing the shared clock by its length — so the server sees the
 * same time pass, tokens age, and no test waits in real time. Records every wait the SDK asked for.
 */
export function drivingClock(clock: ManualClock): Clock & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => clock.now(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
      await clock.advance(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}
