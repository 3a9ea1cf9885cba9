/** What a pool worker asks for after its item: keep going, or start nothing new. */
export type PoolVerdict = 'continue' | 'stop';

/**
 * Runs `worker(0)`, `worker(1)`, … `worker(count - 1)` with at most `concurrency` in flight, starting them
 * in index order. A worker that answers `'stop'` or throws stops new starts; the pool still waits for the
 * workers in flight (nothing is left running behind the caller's back), then rethrows the first error.
 *
 * @returns how many workers were started (indices `0 … started - 1`).
 */
export async function runPool(
  count: number,
  concurrency: number,
  worker: (index: number) => Promise<PoolVerdict>,
): Promise<{ started: number }> {
  let next = 0;
  let stopped = false;
  const errors: unknown[] = [];
  const lane = async (): Promise<void> => {
    while (!stopped && next < count) {
      const index = next;
      next += 1;
      try {
        if ((await worker(index)) === 'stop') stopped = true;
      } catch (error) {
        stopped = true;
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  if (errors.length > 0) throw errors[0];
  return { started: next };
}
