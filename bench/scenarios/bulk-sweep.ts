import { importSdk } from '../lib/build-sdk.js';
import { investorRows } from '../lib/fixtures.js';
import type { BenchContext } from '../lib/result.js';
import { median } from '../lib/stats.js';

/** The grid of the sweep: every chunk size with every concurrency. */
export const CHUNK_SIZES = [100, 250, 500, 1000] as const;
export const CONCURRENCIES = [1, 2, 4, 8] as const;

/** One cell of the sweep: its options and the median wall time of its imports. */
export interface SweepCell {
  chunkSize: number;
  concurrency: number;
  ms: number;
}

/**
 * `client.investors.create(rows, { chunkSize, concurrency })` of `total` fresh rows for every cell of the
 * grid, `passes` times (the second pass in reverse order, so a slow patch of the machine does not fall on
 * the same cells), against `partner.baseUrl`. The SDK alone, in this process: no contender shares it.
 */
export async function sweepBulk(
  partner: { baseUrl: string; clientId: string; issuer: string; privateKey: string },
  { total, passes, log }: { total: number; passes: number; log: BenchContext['log'] },
): Promise<SweepCell[]> {
  const { PartnerEquity } = await importSdk();
  const client = new PartnerEquity({ ...partner });
  const cells = CHUNK_SIZES.flatMap((chunkSize) =>
    CONCURRENCIES.map((concurrency) => ({ chunkSize, concurrency, times: [] as number[] })),
  );
  let batch = 0;
  const importOnce = async (count: number, options: { chunkSize: number; concurrency: number }) => {
    const rows = investorRows(count, `sweep-${batch++}`);
    const start = performance.now();
    const result = await client.investors.create(rows, options);
    const ms = performance.now() - start;
    if (result.succeeded.length !== count) throw new Error(`${result.failed.length} rows failed`);
    return ms;
  };
  try {
    // Untimed: the token, the connections and the bulk code's first compilation.
    await importOnce(Math.min(total, 2_000), { chunkSize: 500, concurrency: 4 });
    for (let pass = 0; pass < passes; pass++) {
      for (const cell of pass % 2 === 0 ? cells : [...cells].reverse()) {
        const ms = await importOnce(total, cell);
        cell.times.push(ms);
        log(
          `  sweep pass ${pass + 1} chunkSize ${cell.chunkSize} concurrency ${cell.concurrency}: ${ms.toFixed(0)} ms`,
        );
      }
    }
  } finally {
    await client.close();
  }
  return cells.map(({ chunkSize, concurrency, times }) => ({ chunkSize, concurrency, ms: median(times) }));
}
