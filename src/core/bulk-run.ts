import type { APIPromise, RawResponse } from './api-promise.js';
import { splitChunks } from './bulk-chunks.js';
import { type PoolVerdict, runPool } from './bulk-pool.js';
import { APIConnectionError, APIError, APIUserAbortError, PartnerEquityError } from './errors.js';
import { chunkKey, deriveIdempotencyKey } from './idempotency.js';
import { isRetryableStatus } from './retry-policy.js';

/** Where a long bulk call stands; reported after every chunk (the last report has `done === total`). */
export interface BulkProgress {
  /** Rows answered so far (including rows refused before sending). */
  done: number;
  total: number;
  succeeded: number;
  failed: number;
}

/** What happened to one chunk (one HTTP call) of a bulk call. */
export interface BulkChunkReport {
  /** The chunk's slot: rows `[index * chunkSize, (index + 1) * chunkSize)` of the input. */
  index: number;
  /** Rows sent in it (rows refused client-side are not). */
  rows: number;
  /** The `Idempotency-Key` it was (or would have been) sent with. */
  idempotencyKey: string;
  /** `false` when it was never sent because an earlier chunk failed for good. */
  sent: boolean;
  /** HTTP status of the answer; `undefined` when none arrived. */
  status: number | undefined;
  /** The answer's request id, to quote to support. */
  requestId: string | undefined;
  /** HTTP requests made for it (1 + retries). */
  attempts: number;
  /** Why the chunk failed as a whole, after the pipeline's retries. */
  error: PartnerEquityError | undefined;
}

/** How one kind of bulk call sends rows and reads results. */
export interface BulkRunSpec<Input, Result> {
  /** Every row of the call, in input order. */
  inputs: readonly Input[];
  /** Results known before sending (rows refused client-side), by position; `undefined` rows are sent. */
  prefilled: readonly (Result | undefined)[];
  chunkSize: number;
  concurrency: number;
  /** The call's key; chunk keys are derived from it. */
  baseKey: string;
  /** Sends one chunk; its `signal` (from the call's options) ends the whole call with `APIUserAbortError`. */
  send(rows: Input[], idempotencyKey: string): APIPromise<readonly Result[]>;
  /** The id that pairs a row with its result (`partnerInvestorId`); unique among sent rows. */
  keyOf(input: Input): string;
  resultKeyOf(result: Result): string;
  /** The failed result for a row the API did not answer. */
  failure(input: Input, error: { code: string; message: string; retryable: boolean }): Result;
  succeeded(result: Result): boolean;
  onProgress?: ((progress: BulkProgress) => void) | undefined;
}

/** Every row's result in input order, what each chunk did, and a summary response. */
export interface BulkRunOutcome<Result> {
  results: Result[];
  chunks: BulkChunkReport[];
  response: RawResponse;
}

/**
 * Sends the rows without a prefilled result in chunks of at most `chunkSize`, `concurrency` at a time, each
 * with the idempotency key `deriveIdempotencyKey(chunkKey(baseKey, index), rows)`: the same input and key
 * give the same chunk keys on a re-run (the API replays what it already did), and a chunk whose rows
 * changed gets a new key instead of a 409. See {@link BulkChunkReport} and the README's "Bulk imports" for
 * what a chunk failure does.
 */
export async function runBulk<Input, Result>(
  spec: BulkRunSpec<Input, Result>,
): Promise<BulkRunOutcome<Result>> {
  const results = [...spec.prefilled];
  const positions = results.flatMap((result, position) => (result === undefined ? [position] : []));
  const chunks = splitChunks(positions, spec.chunkSize);
  const rowsOf = (chunk: (typeof chunks)[number]) =>
    chunk.positions.map((position) => spec.inputs[position] as Input);
  // Keys are hashed when their chunk is sent (or at the end, for chunks never sent): hashing 25,000 rows
  // up front delayed the first request by ~50 ms; in the pool it overlaps with the requests in flight.
  const keyOf = (chunk: (typeof chunks)[number], rows = rowsOf(chunk)) =>
    deriveIdempotencyKey(chunkKey(spec.baseKey, chunk.index), rows);
  const reports: BulkChunkReport[] = chunks.map((chunk) => {
    return {
      index: chunk.index,
      rows: chunk.positions.length,
      idempotencyKey: '',
      sent: false,
      status: undefined,
      requestId: undefined,
      attempts: 0,
      error: undefined,
    };
  });
  const responses = new Map<number, RawResponse>();
  const progress = () => {
    if (spec.onProgress === undefined) return;
    let done = 0;
    let succeeded = 0;
    for (const result of results) {
      if (result === undefined) continue;
      done += 1;
      if (spec.succeeded(result)) succeeded += 1;
    }
    spec.onProgress({ done, total: results.length, succeeded, failed: done - succeeded });
  };
  const fail = (position: number, error: { code: string; message: string; retryable: boolean }) => {
    results[position] = spec.failure(spec.inputs[position] as Input, error);
  };

  const { started } = await runPool(chunks.length, spec.concurrency, async (n) => {
    const chunk = chunks[n] as (typeof chunks)[number];
    const report = reports[n] as BulkChunkReport;
    const rows = rowsOf(chunk);
    report.idempotencyKey = keyOf(chunk, rows);
    report.sent = true;
    let verdict: PoolVerdict = 'continue';
    try {
      const { data, response } = await spec.send(rows, report.idempotencyKey).withResponse();
      Object.assign(report, {
        status: response.status,
        requestId: response.requestId,
        attempts: response.attempts,
      });
      responses.set(n, response);
      const byKey = new Map(data.map((result) => [spec.resultKeyOf(result), result]));
      for (const position of chunk.positions) {
        const result = byKey.get(spec.keyOf(spec.inputs[position] as Input));
        if (result !== undefined) results[position] = result;
        else
          fail(position, {
            code: 'missing_result',
            message: 'The API returned no result for this row',
            retryable: true,
          });
      }
    } catch (error) {
      if (error instanceof APIUserAbortError || !(error instanceof PartnerEquityError)) throw error;
      const retryable = isRetryableError(error);
      Object.assign(report, {
        error,
        status: error instanceof APIError ? error.status : undefined,
        requestId: error instanceof APIError ? error.requestId : undefined,
        attempts: 'attempts' in error && typeof error.attempts === 'number' ? error.attempts : 1,
      });
      for (const position of chunk.positions) {
        fail(position, {
          code: 'request_failed',
          message: `The request for this row failed: ${error.message}`,
          retryable,
        });
      }
      if (!retryable) verdict = 'stop';
    }
    // Outside the try: an exception from the caller's callback ends the call rather than failing rows.
    progress();
    return verdict;
  });

  reports.forEach((report, n) => {
    if (!report.sent) report.idempotencyKey = keyOf(chunks[n] as (typeof chunks)[number]);
  });
  const firstFailure = reports.find((report) => report.error !== undefined);
  if (responses.size === 0 && firstFailure?.error !== undefined) throw firstFailure.error;
  const stopper = reports.find((report) => report.error !== undefined && !isRetryableError(report.error));
  for (const chunk of chunks.slice(started)) {
    for (const position of chunk.positions) {
      fail(position, {
        code: 'not_sent',
        message: `Not sent: chunk ${stopper?.index ?? '?'} failed with ${stopper?.error?.code ?? 'an error'}; send this row again`,
        retryable: true,
      });
    }
  }
  if (chunks.length === 0 || started < chunks.length) progress();
  return {
    results: results as Result[],
    chunks: reports,
    response: summary(responses, reports, spec.baseKey),
  };
}

/** Failures a later attempt may fix: no answer at all, a timeout, 408, 429 or 5xx. */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof APIError) return isRetryableStatus(error.status);
  return error instanceof APIConnectionError;
}

// One response for the whole call: the last answered chunk's, with every chunk's attempts and the call's
// own key. Status 0 and no headers when nothing was sent (every row was refused before sending).
function summary(
  responses: Map<number, RawResponse>,
  reports: BulkChunkReport[],
  baseKey: string,
): RawResponse {
  const last = [...responses.entries()].sort(([a], [b]) => a - b).at(-1)?.[1];
  const attempts = reports.reduce((sum, report) => sum + report.attempts, 0);
  return {
    status: last?.status ?? 0,
    headers: last?.headers ?? new Headers(),
    requestId: last?.requestId,
    attempts,
    idempotencyKey: baseKey,
  };
}
