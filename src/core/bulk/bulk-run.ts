import { APIConnectionError, APIError, APIUserAbortError, PartnerEquityError } from '../errors/errors.js';
import type { APIPromise, RawResponse } from '../request/api-promise.js';
import { chunkKey, idempotencyKeyOfJson, stableJson } from '../request/idempotency.js';
import { isRetryableStatus } from '../request/retry-policy.js';
import { type BulkChunk, positionOf } from './bulk-chunks.js';
import { type PoolVerdict, runPool } from './bulk-pool.js';

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
  /**
   * The client-side row checks: `check(start, end)` completes `inputs` and `prefilled` for positions
   * `[start, end)`; called once per chunk slot, just before that slot is read. Without it both are taken as
   * complete. An object with a method rather than a function made per call (see `bodyWriter`).
   */
  checker?: { check(start: number, end: number): void } | undefined;
  chunkSize: number;
  concurrency: number;
  /** The call's key; chunk keys are derived from it. */
  baseKey: string;
  /** The request body's one field: the body is `{ [field]: rows }`. */
  field: string;
  /**
   * Sends one chunk; its `signal` (from the call's options) ends the whole call with `APIUserAbortError`.
   * `bodyJson` is the body as stable JSON, the text whose rows the key was hashed from: send it rather than
   * writing the rows again.
   */
  send(rows: Input[], idempotencyKey: string, bodyJson: string): APIPromise<readonly Result[]>;
  /**
   * `write(rows)`: `stableJson({ [field]: rows })` written faster for a known row shape; it must give the very
   * same text. Like `checker`, an object whose method is the same function on every call: V8 optimises the
   * loops that call it for the function it last saw, and a function made per call made that code be thrown
   * away and compiled again on every call.
   */
  bodyWriter?: { write(rows: readonly Input[]): string } | undefined;
  /**
   * The id that pairs a row with its result (`partnerInvestorId`); unique among sent rows. When a row or a
   * result of a chunk has none, that chunk's results are paired with its rows by position instead.
   */
  keyOf(input: Input): string | undefined;
  resultKeyOf(result: Result): string | undefined;
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
 * changed gets a new key instead of a 409. See {@link BulkChunkReport} and `docs/bulk-and-uploads.md` for
 * what a chunk failure does.
 */
export async function runBulk<Input, Result>(
  spec: BulkRunSpec<Input, Result>,
): Promise<BulkRunOutcome<Result>> {
  const results: (Result | undefined)[] = new Array(spec.inputs.length);
  const slotCount = Math.ceil(spec.inputs.length / spec.chunkSize);
  // Each chunk slot is checked just before it is sent, so the row checks of later chunks overlap with the
  // requests in flight instead of delaying the first one; after the first requests are out, the remaining
  // slots are checked in the background, a slot per event-loop turn. `chunks[k]` is slot k once checked
  // (empty slots send nothing and have no report).
  const chunks: (BulkChunk | undefined)[] = new Array(slotCount);
  const reports: (BulkChunkReport | undefined)[] = new Array(slotCount);
  const slot = (k: number): BulkChunk => {
    const known = chunks[k];
    if (known !== undefined) return known;
    const start = k * spec.chunkSize;
    const end = Math.min(start + spec.chunkSize, spec.inputs.length);
    spec.checker?.check(start, end);
    // Usually no row of the slot was refused: the chunk is the whole slot, without a list of positions.
    let refused = 0;
    for (let position = start; position < end; position += 1) {
      const result = spec.prefilled[position];
      if (result === undefined) continue;
      results[position] = result;
      refused += 1;
    }
    const chunk: BulkChunk = { index: k, start, count: end - start - refused, positions: undefined };
    if (refused > 0) {
      chunk.positions = [];
      for (let position = start; position < end; position += 1) {
        if (results[position] === undefined) chunk.positions.push(position);
      }
    }
    chunks[k] = chunk;
    if (chunk.count > 0) reports[k] = emptyReport(chunk);
    return chunk;
  };
  let checkedUpTo = 0;
  const checkAll = () => {
    for (; checkedUpTo < slotCount; checkedUpTo += 1) slot(checkedUpTo);
  };
  let background = false;
  let finished = false;
  const checkInBackground = () => {
    if (background) return;
    background = true;
    const step = () => {
      if (finished || checkedUpTo >= slotCount) return;
      // A throwing check is left for the foreground to meet (and reject the call with).
      try {
        slot(checkedUpTo);
        checkedUpTo += 1;
        setImmediate(step);
      } catch {
        // left unchecked: `checkAll` or the slot's own worker runs it again and rejects the call
      }
    };
    setImmediate(step);
  };
  const rowsOf = (chunk: BulkChunk): Input[] =>
    chunk.positions === undefined
      ? spec.inputs.slice(chunk.start, chunk.start + chunk.count)
      : chunk.positions.map((position) => spec.inputs[position] as Input);
  // Keys are hashed when their chunk is sent (or at the end, for chunks never sent): hashing 25,000 rows
  // up front delayed the first request by ~50 ms; in the pool it overlaps with the requests in flight.
  // The key is `deriveIdempotencyKey(chunkKey(baseKey, index), rows)`, hashed from the very text sent: the
  // body is written once, whole, and the rows' JSON is the part of it between `{"<field>":` and `}` (a
  // slice, not a copy).
  const bodyJsonOf = (rows: readonly Input[]) =>
    spec.bodyWriter === undefined ? stableJson({ [spec.field]: rows }) : spec.bodyWriter.write(rows);
  const rowsFrom = spec.field.length + 4;
  const keyOf = (chunk: BulkChunk, bodyJson: string) =>
    idempotencyKeyOfJson(chunkKey(spec.baseKey, chunk.index), bodyJson.slice(rowsFrom, -1));
  const responses = new Map<number, RawResponse>();
  const progress = () => {
    if (spec.onProgress === undefined) return;
    checkAll(); // `done` counts every row refused client-side, as if all were checked up front
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

  // The usual answer: one result per row, in the rows' order, each with its row's key. Its results are
  // placed as they are checked (one pass, no pairing array); `false` when the answer is any other, and the
  // caller pairs it by key, which places (or fails) every row again.
  const placedInOrder = (chunk: BulkChunk, rows: readonly Input[], data: readonly Result[]): boolean => {
    if (data.length !== rows.length) return false;
    for (let i = 0; i < rows.length; i += 1) {
      const key = spec.keyOf(rows[i] as Input);
      const result = data[i] as Result;
      if (key === undefined || spec.resultKeyOf(result) !== key) return false;
      results[positionOf(chunk, i)] = result;
    }
    return true;
  };

  const pooled = runPool(slotCount, spec.concurrency, async (k) => {
    const chunk = slot(k);
    const report = reports[k];
    if (report === undefined) return 'continue';
    const rows = rowsOf(chunk);
    const bodyJson = bodyJsonOf(rows);
    report.idempotencyKey = keyOf(chunk, bodyJson);
    report.sent = true;
    let verdict: PoolVerdict = 'continue';
    try {
      const answer = spec.send(rows, report.idempotencyKey, bodyJson).withResponse();
      checkInBackground();
      const { data, response } = await answer;
      Object.assign(report, {
        status: response.status,
        requestId: response.requestId,
        attempts: response.attempts,
      });
      responses.set(k, response);
      if (!placedInOrder(chunk, rows, data)) {
        const paired = pairResults(spec, rows, data);
        for (let i = 0; i < chunk.count; i += 1) {
          const position = positionOf(chunk, i);
          const result = paired[i];
          if (result !== undefined) results[position] = result;
          else
            fail(position, {
              code: 'missing_result',
              message: 'The API returned no result for this row',
              retryable: true,
            });
        }
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
      for (let i = 0; i < chunk.count; i += 1) {
        fail(positionOf(chunk, i), {
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
  // Background checks stop with the call (an abort or a thrown callback ends it early).
  const { started } = await pooled.finally(() => {
    finished = true;
  });

  checkAll();
  const kept = reports.filter((report) => report !== undefined);
  for (const report of kept) {
    if (report.sent) continue;
    const chunk = chunks[report.index] as BulkChunk;
    report.idempotencyKey = keyOf(chunk, bodyJsonOf(rowsOf(chunk)));
  }
  const firstFailure = kept.find((report) => report.error !== undefined);
  if (responses.size === 0 && firstFailure?.error !== undefined) throw firstFailure.error;
  const stopper = kept.find((report) => report.error !== undefined && !isRetryableError(report.error));
  const unsent = kept.filter((report) => report.index >= started);
  for (const report of unsent) {
    const chunk = chunks[report.index] as BulkChunk;
    for (let i = 0; i < chunk.count; i += 1) {
      fail(positionOf(chunk, i), {
        code: 'not_sent',
        message: `Not sent: chunk ${stopper?.index ?? '?'} failed with ${stopper?.error?.code ?? 'an error'}; send this row again`,
        retryable: true,
      });
    }
  }
  if (kept.length === 0 || unsent.length > 0) progress();
  return {
    results: results as Result[],
    chunks: kept,
    response: summary(responses, kept, spec.baseKey),
  };
}

// Results by row when they are not in order: by key when every row and result has one, else by position when
// the counts agree.
function pairResults<Input, Result>(
  spec: Pick<BulkRunSpec<Input, Result>, 'keyOf' | 'resultKeyOf'>,
  rows: readonly Input[],
  data: readonly Result[],
): (Result | undefined)[] {
  const byKey = new Map<string, Result>();
  for (const result of data) {
    const key = spec.resultKeyOf(result);
    if (key === undefined) return data.length === rows.length ? [...data] : [];
    byKey.set(key, result);
  }
  const keyed = rows.map((row) => {
    const key = spec.keyOf(row);
    return key === undefined ? null : byKey.get(key);
  });
  if (!keyed.includes(null)) return keyed as (Result | undefined)[];
  return data.length === rows.length ? [...data] : [];
}

function emptyReport(chunk: BulkChunk): BulkChunkReport {
  return {
    index: chunk.index,
    rows: chunk.count,
    idempotencyKey: '',
    sent: false,
    status: undefined,
    requestId: undefined,
    attempts: 0,
    error: undefined,
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
    replayed: responses.size > 0 && [...responses.values()].every((response) => response.replayed),
  };
}
