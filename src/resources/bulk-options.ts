import { z } from 'zod';
import type { BulkChunk, BulkProgress } from '../core/bulk/bulk-run.js';
import type { IdempotentRequestOptions } from './idempotent-request-options.js';

/** Rows per request by default: the spec shows no row limit; 500 is what the fake accepts. */
export const DEFAULT_CHUNK_SIZE = 500;
/** Chunk requests in flight at once by default. */
export const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 16;

/** Options of the chunked bulk calls (`investors.create`, `subscriptions.create`). */
export interface BulkCreateOptions<Input = unknown, Result = unknown> extends IdempotentRequestOptions {
  /**
   * Rows per request; larger inputs are split. The spec shows no per-request row limit: a chunk the
   * service refuses as too large (413, or a 400/422 saying too many rows) is sent again in halves.
   * @default 500
   */
  chunkSize?: number;
  /** Chunk requests in flight at once (1-16). @default 4 */
  concurrency?: number;
  /** Called after every chunk with the rows answered so far; the last call has `done === total`. */
  onProgress?: (progress: BulkProgress) => void;
  /**
   * Called with each chunk's rows and results, in input order, once the chunk is answered; the next chunk
   * waits for a returned promise. Given with an `AsyncIterable`, rows are handed here and not kept: the
   * call's `results`, `succeeded`, `failed` and `retryable` are then empty, and memory stays bounded by
   * `chunkSize` × `concurrency` whatever the input's length.
   *
   * @example
   * ```ts
   * await client.investors.create(readRows('investors.csv'), {
   *   onChunk: async ({ results }) => out.write(results.map((row) => JSON.stringify(row)).join('\n')),
   * });
   * ```
   */
  onChunk?: (chunk: BulkChunk<Input, Result>) => void | Promise<void>;
}

const callback = <T>() =>
  z.custom<T>((value) => typeof value === 'function', 'Expected a function').optional();

/** The checks of {@link BulkCreateOptions}' own fields. */
export const BulkOptions = z.object({
  chunkSize: z.int().min(1).optional(),
  concurrency: z.int().min(1).max(MAX_CONCURRENCY).optional(),
  onProgress: callback<(progress: BulkProgress) => void>(),
  onChunk: callback<(chunk: BulkChunk<never, never>) => void | Promise<void>>(),
});

/** The bulk fields of `options`, picked for {@link BulkOptions}. */
export function bulkFields<I, R>(options: BulkCreateOptions<I, R> | undefined): Record<string, unknown> {
  return {
    chunkSize: options?.chunkSize,
    concurrency: options?.concurrency,
    onProgress: options?.onProgress,
    onChunk: options?.onChunk,
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
  const split = {
    succeeded: [] as Success[],
    failed: [] as Exclude<Result, Success>[],
    retryable: [] as Input[],
  };
  results.forEach((result, index) => {
    if (succeeded(result)) split.succeeded.push(result);
    else split.failed.push(result as Exclude<Result, Success>);
    if (result.error?.retryable === true) split.retryable.push(inputs[index] as Input);
  });
  return split;
}

/** The object elements of a body's `results`, whatever the body is, each through `map` when given. */
export function resultRows<Row, Out = Row>(
  body: { results: Row[] } | null | undefined,
  map?: (row: Row) => Out,
): Out[] {
  const rows: unknown = body?.results;
  if (!Array.isArray(rows)) return [];
  return rows
    .filter((row): row is Row => typeof row === 'object' && row !== null)
    .map((row) => (map === undefined ? (row as unknown as Out) : map(row)));
}
