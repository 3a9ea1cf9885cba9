import { z } from 'zod';
import type { BulkChunk, BulkChunkReport, BulkProgress } from '../core/bulk/bulk-chunk.js';
import { type BulkRunSpec, runBulk } from '../core/bulk/bulk-run.js';
import type { PartnerEquityError } from '../core/errors/errors.js';
import { APIPromise } from '../core/request/api-promise.js';
import type { IdempotentRequestOptions } from '../core/request/request-options.js';
import { JsonText, type Operation } from '../core/request/request-spec.js';
import type { CallInput, Requester } from '../core/request/requester.js';

/** Rows per request by default: the spec shows no row limit; 500 is what the fake accepts. */
export const DEFAULT_CHUNK_SIZE = 500;
/** Chunk requests in flight at once by default. */
export const DEFAULT_CONCURRENCY = 4;

/** Options of the chunked bulk calls (`investors.create`, `subscriptions.create`). */
export interface BulkCreateOptions<Input = unknown, Result = unknown> extends IdempotentRequestOptions {
  /**
   * Rows per request; larger inputs are split. The spec shows no per-request row limit: a chunk the
   * service refuses as too large (413, or a 400/422 saying too many rows) is sent again in halves.
   * @default 500
   */
  chunkSize?: number;
  /** Chunk requests awaiting their answer at once (1-16; docs/bulk-and-uploads.md). @default 4 */
  concurrency?: number;
  /** Called after every chunk with the rows answered so far; the last call has `done === total`. */
  onProgress?: (progress: BulkProgress) => void;
  /**
   * Called with each chunk's rows and results, in input order, once the chunk is answered; the next chunk
   * waits for a returned promise. Given with an `AsyncIterable`, rows are handed here and not kept: the
   * call's `results`, `succeeded` and `failed` are then empty (`retryable` is still kept), and memory stays
   * bounded by `chunkSize` × `concurrency` and the rows that failed transiently, whatever the input's length.
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
  concurrency: z.int().min(1).max(16).optional(),
  onProgress: callback<(progress: BulkProgress) => void>(),
  onChunk: callback<(chunk: BulkChunk<never, never>) => void | Promise<void>>(),
});

/** A row's result: a failed one says whether another try may pass. */
export type RowResult = { error?: { retryable: boolean } | null | undefined };

/** What a bulk call resolves to: every row answered, in input order. */
export interface BulkResult<Input, Result extends RowResult, Success extends Result> {
  /** One result per input row, in input order. */
  results: Result[];
  /** Rows the API took (for investors: a new person, or the known one for a repeated `partnerInvestorId`). */
  succeeded: Success[];
  /** Every other row, with its `error` (refused client-side, refused by the API, or lost with its chunk). */
  failed: Exclude<Result, Success>[];
  /**
   * The input rows whose failure may pass on another try, ready to send again, in input order: kept also
   * for a stream handed to `onChunk`. Send them with a new `idempotencyKey`: under the same key the API
   * replays the first answers, transient failures included, for 24 h.
   */
  retryable: Input[];
  /** One report per chunk request (keys, request ids, attempts, chunk-level errors). */
  chunks: BulkChunkReport[];
  /**
   * The error that stopped the call (401, 403, 404, a quota, a 409…): its chunk failed with an error every
   * later chunk would get, so those were not sent (their rows are `not_sent`). `undefined` otherwise.
   * The call resolves with every row's result whatever its chunks met; it rejects only when malformed
   * (nothing sent), on `signal`, or when the stream or `onChunk` throws.
   */
  error: PartnerEquityError | undefined;
}

/** How one bulk call is checked and how its rows pair with their results. */
export interface BulkCall<Input, Result extends RowResult, Success extends Result>
  extends Pick<BulkRunSpec<Input, Result>, 'keyOf' | 'resultKeyOf' | 'failure' | 'wholeChunks'> {
  /** The call's arguments besides its rows (the path parameters, the whole body when checked up front). */
  input: CallInput;
  /** The caller's rows; when `input` has the body, the checked copy of its array is sent instead. */
  rows: readonly Input[] | AsyncIterable<Input>;
  /** Each row's check as its chunk is read, given how many rows the call holds at once (all of an array). */
  check: (held: number) => BulkRunSpec<Input, Result>['check'];
  succeeded: (result: Result) => result is Success;
}

/**
 * Checks a chunked call of `operation` on the one `InputValidationError` path, then sends its rows through
 * `runBulk`: each chunk one `requester.call` with its derived key and the JSON text that key was hashed from.
 */
export function sendBulk<Input, Result extends RowResult, Success extends Result>(
  requester: Requester,
  operation: Operation & { body: { chunkedArray: string } },
  call: BulkCall<Input, Result, Success>,
  options: BulkCreateOptions<Input, Result> | undefined,
): APIPromise<BulkResult<Input, Result, Success>> {
  try {
    const checked = requester.check(operation, call.input, options);
    const bulk: z.output<typeof BulkOptions> = checked.extras ?? {};
    const field = operation.body.chunkedArray;
    const inputs = (checked.body as Record<string, Input[]> | undefined)?.[field] ?? call.rows;
    const chunkSize = bulk.chunkSize ?? DEFAULT_CHUNK_SIZE;
    const concurrency = bulk.concurrency ?? DEFAULT_CONCURRENCY;
    // A stream's rows are held a window at a time: at most 2 × concurrency chunks waiting, plus one read.
    const held = Array.isArray(inputs) ? Number.POSITIVE_INFINITY : chunkSize * (2 * concurrency + 1);
    const outcome = runBulk<Input, Result>({
      ...call,
      inputs,
      check: call.check(held),
      chunkSize,
      concurrency,
      baseKey: checked.idempotencyKey as string,
      field,
      requester,
      operation: operation.span,
      retryable: (result) => result.error?.retryable === true,
      send: (rows, idempotencyKey, bodyJson) =>
        requester.call(
          operation,
          {
            ...(call.input.params && { params: call.input.params }),
            body: new JsonText({ [field]: rows }, bodyJson),
          },
          { ...checked.options, idempotencyKey },
        ) as APIPromise<Result[]>,
      onProgress: bulk.onProgress,
      onChunk: options?.onChunk,
    }).then(({ results, retryable, chunks, response, error }) => ({
      data: { results, ...splitResults(results, call.succeeded), retryable, chunks, error },
      response,
    }));
    return new APIPromise(outcome);
  } catch (error) {
    return new APIPromise(Promise.reject(error));
  }
}

/** A bulk call's results split into `succeeded` and `failed`. */
export function splitResults<Result extends RowResult, Success extends Result>(
  results: readonly Result[],
  succeeded: (result: Result) => result is Success,
): { succeeded: Success[]; failed: Exclude<Result, Success>[] } {
  return {
    succeeded: results.filter(succeeded),
    failed: results.filter((result) => !succeeded(result)) as Exclude<Result, Success>[],
  };
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
