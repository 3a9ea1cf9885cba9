/** What {@link orderedPool} runs: where items come from, how each is sent, where results go. */
export interface OrderedPool<Item, Result> {
  /** The next item, or `undefined` once there are none. Called only while a lane is free. */
  take(): Promise<Item | undefined>;
  send(item: Item): Promise<Result>;
  /** Gets each result in the order the items were taken; the pool waits for it before delivering the next. */
  deliver(result: Result): Promise<void>;
  /** Sends in flight at once. */
  limit: number;
}

/**
 * Sends items `limit` at a time and delivers their results in order. An answered result waits for the ones
 * before it; at most `limit` of them wait, so at most 2 × `limit` items are held. Resolves once every result
 * is delivered; a `send`, `take` or `deliver` that throws ends it (sends in flight are awaited first).
 */
export async function orderedPool<Item, Result>(pool: OrderedPool<Item, Result>): Promise<void> {
  const { limit } = pool;
  const queue: { result: Promise<Result>; settled: boolean }[] = [];
  let ended = false;
  try {
    for (;;) {
      while (queue[0]?.settled === true)
        await pool.deliver(await (queue.shift() as (typeof queue)[0]).result);
      const inFlight = queue.filter((entry) => !entry.settled);
      if (!ended && inFlight.length < limit && queue.length < 2 * limit) {
        const item = await pool.take();
        if (item === undefined) ended = true;
        else {
          const result = pool.send(item);
          const entry = { result, settled: false };
          const settle = () => {
            entry.settled = true;
          };
          result.then(settle, settle);
          queue.push(entry);
        }
        continue;
      }
      if (queue.length === 0) return;
      // Wait for a send to settle (a rejection ends the pool), then deliver and refill. Each entry's `settle`
      // was attached before this race, so it has run when the race resolves.
      await Promise.race(inFlight.map((entry) => entry.result));
    }
  } finally {
    await Promise.allSettled(queue.map((entry) => entry.result));
  }
}
