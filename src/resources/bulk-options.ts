import { z } from 'zod';
import type { BulkProgress } from '../core/bulk-run.js';
import { lazySchema } from '../schemas/lazy-schema.js';
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
export const BulkOptions = lazySchema(() =>
  z.object({
    chunkSize: z.int().min(1).optional(),
    concurrency: z.int().min(1).max(MAX_CONCURRENCY).optional(),
    onProgress: z
      .custom<(progress: BulkProgress) => void>((value) => typeof value === 'function', 'Expected a function')
      .optional(),
  }),
);

/** The bulk fields of `options`, picked for {@link BulkOptions}. */
export function bulkFields(options: BulkCreateOptions | undefined): Record<string, unknown> {
  return {
    chunkSize: options?.chunkSize,
    concurrency: options?.concurrency,
    onProgress: options?.onProgress,
  };
}

/** The object elements of a body's `results`, whatever the body is. */
export function resultRows<Row>(body: { results: Row[] } | null | undefined): Row[] {
  const rows: unknown = body?.results;
  return Array.isArray(rows) ? rows.filter((row) => typeof row === 'object' && row !== null) : [];
}
