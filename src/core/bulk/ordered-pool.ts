import { setImmediate as nextTurn } from 'node:timers/promises';

/** What {@link orderedPool} runs: where items come from, how each is sent, where results go. */
export interface OrderedPool<Item, Result> {
  /** The next item, or `undefined` once there are none. Taken ahead while the lanes are busy. */
  take(): Promise<Item | undefined>;
  send(item: Item): Promise<Result>;
  /** Gets each result in the order the items were taken; the pool waits for it before delivering the next. */
  deliver(result: Result): Promise<void>;
  /** Sends in flight at once. */
  limit: number;
}

/**
 * Sends items `limit` at a time and delivers their results in order. While every lane is busy it takes
 * the next items ahead (at most `limit`), so a lane that frees is refilled at once, not after the next item
 * is read; an answered result waits for the ones before it. At most 2 × `limit` items are held. Resolves
 * once every result is delivered; a `send`, `take` or `deliver` that throws ends it (sends in flight are
 * awaited first).
 */
export async function orderedPool<Item, Result>(pool: OrderedPool<Item, Result>): Promise<void> {
  const { limit } = pool;
  const queue: { result: Promise<Result>; settled: boolean }[] = []; // sent, in order
  const ready: Item[] = []; // taken, waiting for a lane
  let ended = false;
  try {
    for (;;) {
      while (queue[0]?.settled === true)
        await pool.deliver(await (queue.shift() as (typeof queue)[0]).result);
      let sent = false;
      while (ready.length > 0 && queue.filter((entry) => !entry.settled).length < limit) {
        const entry = { result: pool.send(ready.shift() as Item), settled: false };
        const settle = () => {
          entry.settled = true;
        };
        entry.result.then(settle, settle);
        queue.push(entry);
        sent = true;
      }
      // Let the new requests start (and answers that came meanwhile arrive) before the next item is taken;
      // then look again, as a lane may have freed meanwhile.
      if (sent) {
        await nextTurn();
        continue;
      }
      if (!ended && ready.length < limit && queue.length + ready.length < 2 * limit) {
        const item = await pool.take();
        if (item === undefined) ended = true;
        else ready.push(item);
        continue;
      }
      const inFlight = queue.filter((entry) => !entry.settled);
      if (inFlight.length === 0) {
        if (queue.length === 0 && ready.length === 0) return;
        continue;
      }
      // Wait for a send to settle (a rejection ends the pool). Each entry's `settle` was attached before this
      // race, so it has run when the race resolves.
      await Promise.race(inFlight.map((entry) => entry.result));
    }
  } finally {
    await Promise.allSettled(queue.map((entry) => entry.result));
  }
}
