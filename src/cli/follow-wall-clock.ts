/** The part of the fake's `ManualClock` this needs. */
interface AdvanceableClock {
  now(): number;
  advance(ms: number): Promise<void>;
}

/**
 * Keeps a manual clock in step with the wall clock, so a fake API serving people (not a test) ages tokens,
 * checks assertion `iat`/`exp` and fires webhook retries and reconciler sweeps in real time.
 * Returns a function that stops it.
 */
export function followWallClock(clock: AdvanceableClock, intervalMs = 250): () => void {
  let busy = false;
  const timer = setInterval(() => {
    const behind = Date.now() - clock.now();
    if (busy || behind <= 0) return;
    busy = true;
    clock.advance(behind).finally(() => {
      busy = false;
    });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
