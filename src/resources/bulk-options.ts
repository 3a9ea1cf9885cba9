import { z } from 'zod';
import type { BulkProgress } from '../core/bulk/bulk-run.js';
import type { IdempotentRequestOptions } from './idempotent-request-options.js';

/** Rows per request by default: the spec shows no row limit; 500 is what the fake accepts. */
export const DEFAULT_CHUNK_SIZE = 500;
/** Chunk requests in flight at once by default. */
export const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 16;

/** Options of the chunked bulk calls (`investors.create`, `subscriptions.create`). */
export interface BulkCreateOptions extends IdempotentRequestOptions {
  /**
   * Rows per request; larger arrays are split. The spec shows no per-request row limit: lower this if your
   * environment answers large chunks with 413 or 422.
   * @default 500
   */
  chunkSize?: number;
  /** Chunk requests in flight at once (1-16). @default 4 */
  concurrency?: number;
  /** Called after every chunk with the rows answered so far; the last call has `done === total`. */
  onProgress?: (progress: BulkProgress) => void;
}

/** The checks of {@link BulkCreateOptions}' own fields. */
export const BulkOptions = z.object({
  chunkSize: z.int().min(1).optional(),
  concurrency: z.int().min(1).max(MAX_CONCURRENCY).optional(),
  onProgress: z
    .custom<(progress: BulkProgress) => void>((value) => typeof value === 'function', 'Expected a function')
    .optional(),
});

/** The bulk fields of `options`, picked for {@link BulkOptions}. */
export function bulkFields(options: BulkCreateOptions | undefined): Record<string, unknown> {
  return {
    chunkSize: options?.chunkSize,
    concurrency: options?.concurrency,
    onProgress: options?.onProgress,
  };
}

/**
 * A bulk call's results split: rows that `succeeded`, the others (`failed`), and the inputs whose failure
 * is `retryable`, each in input order.
 */
export function splitResults<
  Input,
  Result extends { error?: { retryable: boolean } | null | undefined },
  Success extends Result,
>(
  results: readonly Result[],
  inputs: readonly Input[],
  succeeded: (result: Result) => result is Success,
): { succeeded: Success[]; failed: Exclude<Result, Success>[]; retryable: Input[] } {
  // Usually every row succeeded: then `succeeded` is made as one copy of `results`, not grown row by row.
  let index = 0;
  while (index < results.length) {
    const result = results[index] as Result;
    if (!succeeded(result) || result.error?.retryable === true) break;
    index += 1;
  }
  const split = {
    succeeded: results.slice(0, index) as Success[],
    failed: [] as Exclude<Result, Success>[],
    retryable: [] as Input[],
  };
  for (; index < results.length; index += 1) {
    const result = results[index] as Result;
    if (succeeded(result)) split.succeeded.push(result);
    else split.failed.push(result as Exclude<Result, Success>);
    if (result.error?.retryable === true) split.retryable.push(inputs[index] as Input);
  }
  return split;
}

/**
 * The object elements of a body's `results`, whatever the body is, each through `map` when given (`map`
 * must not change its argument). Usually every element is an object that `map` returns as it is: then the
 * body's own array is returned rather than a copy.
 */
export function resultRows<Row, Out = Row>(
  body: { results: Row[] } | null | undefined,
  map?: (row: Row) => Out,
): Out[] {
  const rows: unknown = body?.results;
  if (!Array.isArray(rows)) return [];
  const out: Out[] = [];
  let asIs = true;
  for (let index = 0; index < rows.length; index += 1) {
    const row: unknown = rows[index];
    const kept = typeof row === 'object' && row !== null;
    const mapped = kept && map !== undefined ? map(row as Row) : (row as Out);
    if (asIs) {
      if (kept && mapped === row) continue;
      // The first element that is dropped or changed: the rows before it are kept as they are.
      asIs = false;
      for (let earlier = 0; earlier < index; earlier += 1) out.push(rows[earlier] as Out);
    }
    if (kept) out.push(mapped);
  }
  return asIs ? (rows as Out[]) : out;
}
