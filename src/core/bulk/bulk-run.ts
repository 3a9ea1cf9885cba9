import { startSpan, type Tracing, within } from '../../tracing/tracing.js';
import { APIError, APIUserAbortError, PartnerEquityError } from '../errors/errors.js';
import type { APIPromise, RawResponse } from '../request/api-promise.js';
import { chunkKey, idempotencyKeyOfJson, stableJson } from '../request/idempotency.js';
import { bulkOutcome } from '../request/operation-span.js';
import { isRetryable } from '../request/retry-policy.js';
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
  /** Results known before sending (rows refused call-wide, such as duplicates), by position. */
  prefilled: readonly (Result | undefined)[];
  /**
   * The row's own checks, run when its chunk is prepared (while its lane's previous chunk is in flight, or
   * just before it is sent): the row to send, or its failed result. Absent: sent as is.
   */
  check?: ((input: Input) => { input: Input } | { result: Result }) | undefined;
  chunkSize: number;
  concurrency: number;
  /** The call's key; chunk keys are derived from it. */
  baseKey: string;
  /** The request body's one field: the body is `{ [field]: rows }`. */
  field: string;
  /**
   * Sends one chunk; its `signal` (from the call's options) ends the whole call with `APIUserAbortError`.
   * `bodyJson` is the body as stable JSON, the text the chunk's key was hashed from: send it as it is.
   */
  send(rows: Input[], idempotencyKey: string, bodyJson: string): APIPromise<readonly Result[]>;
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
  /** Where the call's span goes: one INTERNAL span named `operation`, over its chunks' CLIENT spans. */
  tracing?: Tracing | undefined;
  operation?: string | undefined;
}

/** Every row's result in input order, what each chunk did, and a summary response. */
export interface BulkRunOutcome<Result> {
  results: Result[];
  chunks: BulkChunkReport[];
  response: RawResponse;
}

/** One request's worth of rows, where they stand in the input, and its report. */
interface Chunk<Input> {
  rows: Input[];
  positions: number[];
  bodyJson: string;
  report: BulkChunkReport;
}

/**
 * Sends the rows without a prefilled result in chunks of at most `chunkSize`, `concurrency` at a time, each
 * with the idempotency key `deriveIdempotencyKey(chunkKey(baseKey, index), rows)`: the same input and key
 * give the same chunk keys on a re-run (the API replays what it already did), and a chunk whose rows
 * changed gets a new key instead of a 409. Chunk `index` holds the rows of input positions
 * `[index * chunkSize, (index + 1) * chunkSize)`: rows refused client-side leave holes rather than shifting
 * later rows, so fixing one row changes only its chunk's key. See `docs/bulk-and-uploads.md` for what a
 * chunk failure does.
 */
export async function runBulk<Input, Result>(
  spec: BulkRunSpec<Input, Result>,
): Promise<BulkRunOutcome<Result>> {
  const span = await startSpan(spec.tracing, spec.operation ?? 'bulk', 'internal', {
    'partner_equity.bulk.rows': spec.inputs.length,
    'partner_equity.bulk.chunk_size': spec.chunkSize,
  });
  return within(
    span,
    () => sendChunks(spec),
    (outcome, bulk) => bulk.set(bulkOutcome(outcome, spec.succeeded)),
  );
}

async function sendChunks<Input, Result>(spec: BulkRunSpec<Input, Result>): Promise<BulkRunOutcome<Result>> {
  const results: (Result | undefined)[] = new Array(spec.inputs.length);
  const slotCount = Math.ceil(spec.inputs.length / spec.chunkSize);
  // Slot k once prepared: its chunk, or null when every row of it was refused (nothing to send).
  const slots: (Chunk<Input> | null | undefined)[] = new Array(slotCount);
  const prepare = (k: number): Chunk<Input> | null => {
    const known = slots[k];
    if (known !== undefined) return known;
    const rows: Input[] = [];
    const positions: number[] = [];
    const end = Math.min((k + 1) * spec.chunkSize, spec.inputs.length);
    for (let position = k * spec.chunkSize; position < end; position += 1) {
      const input = spec.inputs[position] as Input;
      const checked =
        spec.prefilled[position] !== undefined
          ? { result: spec.prefilled[position] as Result }
          : (spec.check?.(input) ?? { input });
      if ('result' in checked) results[position] = checked.result;
      else {
        rows.push(checked.input);
        positions.push(position);
      }
    }
    if (rows.length === 0) {
      slots[k] = null;
      return null;
    }
    // The body and the key come from one stable JSON text: the rows' part of it is what is hashed.
    const bodyJson = stableJson({ [spec.field]: rows });
    const key = idempotencyKeyOfJson(chunkKey(spec.baseKey, k), bodyJson.slice(spec.field.length + 4, -1));
    const report: BulkChunkReport = {
      index: k,
      rows: rows.length,
      idempotencyKey: key,
      sent: false,
      status: undefined,
      requestId: undefined,
      attempts: 0,
      error: undefined,
    };
    const chunk = { rows, positions, bodyJson, report };
    slots[k] = chunk;
    return chunk;
  };
  // While a chunk is in flight, the one its lane will likely send next is checked and encoded, so an answer
  // is followed by the next request at once (over a network the lanes wait far longer than this work takes).
  const prepareSoon = (k: number) => {
    if (k >= slotCount || slots[k] !== undefined) return;
    setTimeout(() => {
      try {
        prepare(k);
      } catch {
        // Thrown again, to the caller, when its lane prepares it.
      }
    }, 0);
  };
  const prepareAll = () => {
    for (let k = 0; k < slotCount; k += 1) prepare(k);
  };
  const responses = new Map<number, RawResponse>();
  const progress = () => {
    if (spec.onProgress === undefined) return;
    prepareAll(); // `done` counts every row refused client-side, as if all were checked up front
    const answered = results.filter((result) => result !== undefined);
    const succeeded = answered.filter((result) => spec.succeeded(result)).length;
    spec.onProgress({
      done: answered.length,
      total: results.length,
      succeeded,
      failed: answered.length - succeeded,
    });
  };
  const fail = (
    positions: readonly number[],
    error: { code: string; message: string; retryable: boolean },
  ) => {
    for (const position of positions) results[position] = spec.failure(spec.inputs[position] as Input, error);
  };

  const { started } = await runPool(slotCount, spec.concurrency, async (k) => {
    const chunk = prepare(k);
    if (chunk === null) return 'continue';
    const { report } = chunk;
    report.sent = true;
    let verdict: PoolVerdict = 'continue';
    try {
      const answer = spec.send(chunk.rows, report.idempotencyKey, chunk.bodyJson).withResponse();
      prepareSoon(k + spec.concurrency);
      const { data, response } = await answer;
      Object.assign(report, {
        status: response.status,
        requestId: response.requestId,
        attempts: response.attempts,
      });
      responses.set(k, response);
      const paired = pairResults(spec, chunk.rows, data);
      chunk.positions.forEach((position, i) => {
        const result = paired[i];
        if (result !== undefined) results[position] = result;
        else
          fail([position], {
            code: 'missing_result',
            message: 'The API returned no result for this row',
            retryable: true,
          });
      });
    } catch (error) {
      if (error instanceof APIUserAbortError || !(error instanceof PartnerEquityError)) throw error;
      const retryable = isRetryable(error);
      Object.assign(report, {
        error,
        status: error instanceof APIError ? error.status : undefined,
        requestId: error instanceof APIError ? error.requestId : undefined,
        attempts: 'attempts' in error && typeof error.attempts === 'number' ? error.attempts : 1,
      });
      fail(chunk.positions, {
        code: 'request_failed',
        message: `The request for this row failed: ${error.message}`,
        retryable,
      });
      if (!retryable) verdict = 'stop';
    }
    // Outside the try: an exception from the caller's callback ends the call rather than failing rows.
    progress();
    return verdict;
  });

  prepareAll();
  const chunks = slots.filter((slot) => slot != null);
  const reports = chunks.map((chunk) => chunk.report);
  const firstFailure = reports.find((report) => report.error !== undefined);
  if (responses.size === 0 && firstFailure?.error !== undefined) throw firstFailure.error;
  const stopper = reports.find((report) => report.error !== undefined && !isRetryable(report.error));
  const unsent = chunks.filter((chunk) => chunk.report.index >= started);
  for (const chunk of unsent) {
    fail(chunk.positions, {
      code: 'not_sent',
      message: `Not sent: chunk ${stopper?.index ?? '?'} failed with ${stopper?.error?.code ?? 'an error'}; send this row again`,
      retryable: true,
    });
  }
  if (chunks.length === 0 || unsent.length > 0) progress();
  return {
    results: results as Result[],
    chunks: reports,
    response: summary(responses, reports, spec.baseKey),
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
