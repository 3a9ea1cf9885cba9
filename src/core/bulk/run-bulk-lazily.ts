import type { BulkRunOutcome, BulkRunSpec } from './bulk-run.js';

/**
 * `runBulk`, with the chunk pool, chunk keys and reports (bulk-run.ts) imported on the first bulk call
 * instead of with the SDK: an application that never bulk-creates never loads them (issue 17's cold
 * start). The rows are checked exactly as before: a chunk's rows just before it is sent.
 */
export async function runBulkLazily<Input, Result>(
  spec: BulkRunSpec<Input, Result>,
): Promise<BulkRunOutcome<Result>> {
  const { runBulk } = await import('./bulk-run.js');
  return runBulk(spec);
}
