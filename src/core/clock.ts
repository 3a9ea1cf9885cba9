/**
 * The SDK's only source of time. Production code uses the wall clock; tests and the fake API inject a manual
 * clock so token expiry, backoff waits and webhook schedules run without real sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, like `Date.now()`. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time; rejects with the signal's reason on abort. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Wall-clock time and real timers. */
export const systemClock: Clock = {
  // `Date.now` itself (it needs no `this`): reading the time runs no function of the SDK's.
  now: Date.now,
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      signal?.throwIfAborted(); // rejects the promise with the signal's reason
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
