import { startSpan, within } from '../../tracing/tracing.js';
import { APIError, APIUserAbortError, ConflictError, PartnerEquityError } from '../errors/errors.js';
import type { APIPromise, RawResponse } from '../request/api-promise.js';
import { chunkKey, idempotencyKeyOfJson, stableJson } from '../request/idempotency.js';
import type { Requester } from '../request/requester.js';
import { isRetryable } from '../request/retry-policy.js';
import type { BulkChunk, BulkChunkReport, BulkProgress } from './bulk-chunk.js';
import { chunkFitOf, knownTooLarge, namesRows, sizeRefusal } from './chunk-fit.js';

type RowError = { code: string; message: string; retryable: boolean };

const SENT_BEFORE =
  "an earlier run with this idempotencyKey sent the chunk's rows in another size, and a body cap now in front of the service keeps its answer from being replayed; nothing was sent again, so nothing is created twice. Look the rows up, and send the missing ones with a new idempotencyKey";

/** How one kind of bulk call sends rows and reads results. */
export interface BulkRunSpec<Input, Result> {
  /** The rows of the call, read a chunk at a time, never ahead of the chunks held. */
  inputs: readonly Input[] | AsyncIterable<Input>;
  /** A row's own checks as its chunk is read: the row to send, or its result. */
  check(input: Input, position: number): { input: Input } | { result: Result };
  /** Hold back a chunk with a row refused client-side (the API takes such a request whole). */
  wholeChunks?: boolean;
  chunkSize: number;
  concurrency: number;
  /** The call's key; chunk keys are derived from it. */
  baseKey: string;
  /** The request body's one field: the body is `{ [field]: rows }`. */
  field: string;
  requester: Requester;
  /** The operation's span name (`investors.create`): the call's span and its chunk fit. */
  operation: string;
  /** Sends one chunk; `json` is its body as stable JSON (its key hashed from it), `answered` sees a 2xx's head. */
  send(rows: Input[], key: string, json: string, answered?: () => void): APIPromise<readonly Result[]>;
  /** The id pairing a row with its result; when a row or result has none, a chunk pairs by position. */
  keyOf(input: Input): string | undefined;
  resultKeyOf(result: Result): string | undefined;
  /** The failed result for a row the API did not answer. */
  failure(input: Input, error: RowError): Result;
  succeeded(result: Result): boolean;
  /** Whether a failed result may pass on another try. */
  retryable(result: Result): boolean;
  onProgress?: ((progress: BulkProgress) => void) | undefined;
  onChunk?: ((chunk: BulkChunk<Input, Result>) => void | Promise<void>) | undefined;
}

/**
 * Every row and its result in input order (none for a stream handed to `onChunk`), the rows whose failure
 * may pass on another try (always kept), each chunk's report, a summary, the error that stopped the call.
 */
export interface BulkRunOutcome<Input, Result> {
  rows: Input[];
  results: Result[];
  retryable: Input[];
  chunks: BulkChunkReport[];
  response: RawResponse;
  error: PartnerEquityError | undefined;
}

/**
 * Sends the rows a chunk at a time (`concurrency` in flight), each chunk keyed by `baseKey`, its index and its
 * rows, so a re-run replays what the API already did. A chunk refused as too large is sent again in halves.
 * See `docs/bulk-and-uploads.md`.
 */
export async function runBulk<Input, Result>(
  spec: BulkRunSpec<Input, Result>,
): Promise<BulkRunOutcome<Input, Result>> {
  const span = await startSpan(spec.requester.config.tracing, spec.operation, 'internal', {
    'partner_equity.bulk.rows': Array.isArray(spec.inputs) ? spec.inputs.length : undefined,
    'partner_equity.bulk.chunk_size': spec.chunkSize,
  });
  const run = new BulkRun(spec);
  return within(
    span,
    () => run.run(),
    ({ chunks }, bulk) =>
      bulk.set({
        'partner_equity.bulk.chunks': chunks.length,
        'partner_equity.bulk.chunks_sent': chunks.filter((chunk) => chunk.sent).length,
        'partner_equity.bulk.rows_sent': chunks.reduce(
          (sum, c) => sum + (c.sent && !c.split ? c.rows : 0),
          0,
        ),
        'partner_equity.bulk.rows_succeeded': run.counts.succeeded,
        'partner_equity.bulk.rows_failed': run.counts.done - run.counts.succeeded,
      }),
  );
}

/** One chunk as read: its rows, the checked rows to send, their JSON (reused by halves), results, requests. */
interface Slot<Input, Result> {
  index: number;
  rows: Input[];
  inputs: (Input | undefined)[];
  json: (string | undefined)[];
  results: (Result | undefined)[];
  reports: BulkChunkReport[];
  last?: RawResponse;
  /** The unsplit chunk's key and first position: pieces split for bytes are keyed from them (`#piece`). */
  key?: string;
  start?: number;
  /** Set when the chunk's key holds another body: its rows not yet sent are not sent. */
  blocked?: RowError;
}

class BulkRun<Input, Result> {
  readonly #spec: BulkRunSpec<Input, Result>;
  readonly #fit;
  readonly #rows: Input[] = [];
  readonly #results: Result[] = [];
  readonly #reports: BulkChunkReport[] = [];
  readonly #retryable: Input[] = [];
  #replayedRetryable = 0; // rows failed transiently in answers replayed from an earlier run
  #sentBefore = 0; // rows not sent: their chunk's key holds another size of it (`chunk_sent_before`)
  /** Rows read, answered (`done`) and succeeded so far. */
  readonly counts = { read: 0, done: 0, succeeded: 0 };
  readonly #answers = { count: 0, replayed: 0 };
  #last: RawResponse | undefined; // the last answered chunk's response, in input order
  #stopper: { index: number; code: string } | undefined; // the chunk whose error stops later ones
  // With onProgress, an array's rows are checked up front: progress counts its refused rows from the start.
  #checked: ReturnType<BulkRunSpec<Input, Result>['check']>[] | undefined;
  #refusedAhead = 0;
  #warned = false;

  constructor(spec: BulkRunSpec<Input, Result>) {
    this.#spec = spec;
    this.#fit = chunkFitOf(spec.requester.config.chunkFits, spec.operation);
  }

  async run(): Promise<BulkRunOutcome<Input, Result>> {
    const spec = this.#spec;
    const array = Array.isArray(spec.inputs) ? (spec.inputs as readonly Input[]) : undefined;
    // Only progress needs them early; else each chunk is checked as it is read, while others are in flight.
    this.#checked = spec.onProgress && array?.map((row, position) => spec.check(row, position));
    this.#refusedAhead = this.#checked?.filter((checked) => 'result' in checked).length ?? 0;
    const iterator: Iterator<Input> | AsyncIterator<Input> =
      array?.[Symbol.iterator]() ?? (spec.inputs as AsyncIterable<Input>)[Symbol.asyncIterator]();
    // Chunks in input order: at most `concurrency` in flight and twice that held, up to `concurrency` of them
    // checked and waiting for a lane (`ready`), so answers that come together are each followed at once.
    // Without callbacks to run between chunks, a lane is free once its 2xx answer's head has arrived.
    const window: { sending: Promise<Slot<Input, Result>>; settled: boolean; free?: boolean }[] = [];
    const ready: Slot<Input, Result>[] = [];
    const pending = () => window.filter((entry) => !entry.settled && !entry.free);
    let wake: (entry?: unknown) => void = () => {}; // `advance`, waiting for an entry to be marked
    const mark = (e: object, key: 'free' | 'settled') => () => wake(Object.assign(e, { [key]: true }));
    // Delivers answered chunks in order and sends ready ones while a lane is free; returns once another chunk
    // may be read (`more`), else once everything is delivered.
    const advance = async (more: boolean) => {
      const { concurrency } = spec;
      for (;;) {
        const changed = new Promise((resolve) => (wake = resolve));
        while (window[0]?.settled === true)
          await this.#deliver(await (window.shift() as (typeof window)[number]).sending);
        const sent = window.length;
        while (ready.length > 0 && pending().length < concurrency && window.length < 2 * concurrency) {
          const entry: (typeof window)[number] = { sending: undefined as never, settled: false };
          const free = (spec.onChunk ?? spec.onProgress) ? undefined : mark(entry, 'free');
          entry.sending = this.#send(ready.shift() as Slot<Input, Result>, free);
          entry.sending.then(mark(entry, 'settled'), mark(entry, 'settled'));
          window.push(entry);
        }
        // Let the requests' promise steps run (and answers arrive) before more rows are checked; look again.
        if (window.length > sent) {
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        const held = window.length + ready.length;
        if (more ? ready.length < concurrency && held < 2 * concurrency : held === 0) return;
        await changed;
      }
    };
    let ended = false;
    let readError: { error: unknown } | undefined;
    try {
      for (let index = 0; ; index += 1) {
        let rows: Input[];
        try {
          rows = await this.#take(iterator);
        } catch (error) {
          readError = { error }; // the chunks not yet sent are not sent; the ones in flight finish
          break;
        }
        if (rows.length === 0) break;
        ready.push(this.#check(index, rows));
        await advance(true);
      }
      ended = true;
      await advance(false);
    } finally {
      await Promise.allSettled(window.map((entry) => entry.sending));
      if (!ended) await iterator.return?.();
    }
    if (readError !== undefined) throw readError.error;
    if (this.counts.read === 0) this.#progress();
    const error = this.#reports.find((report) => report.stopped === true)?.error;
    this.#warnReplayed();
    return {
      rows: this.#rows,
      results: this.#results,
      retryable: this.#retryable,
      chunks: this.#reports,
      response: this.#summary(),
      error,
    };
  }

  // The next chunk's rows: up to `chunkSize` read from the array or the stream.
  async #take(iterator: Iterator<Input> | AsyncIterator<Input>): Promise<Input[]> {
    const rows: Input[] = [];
    while (rows.length < this.#spec.chunkSize) {
      const next = await iterator.next();
      if (next.done === true) break;
      rows.push(next.value);
    }
    return rows;
  }

  #check(index: number, rows: Input[]): Slot<Input, Result> {
    const start = this.counts.read;
    this.counts.read += rows.length;
    const slot: Slot<Input, Result> = { index, rows, inputs: [], json: [], results: [], reports: [] };
    rows.forEach((row, i) => {
      const checked = this.#checked?.[start + i] ?? this.#spec.check(row, start + i);
      if ('result' in checked) slot.results[i] = checked.result;
      else {
        slot.inputs[i] = checked.input;
        slot.json[i] = stableJson(checked.input);
      }
    });
    return slot;
  }

  async #send(slot: Slot<Input, Result>, free?: () => void): Promise<Slot<Input, Result>> {
    const positions = slot.rows.flatMap((_, i) => (slot.results[i] === undefined ? [i] : []));
    if (positions.length === 0) return slot;
    const held = this.#spec.wholeChunks === true && positions.length < slot.rows.length;
    if (this.#stopper === undefined && !held) {
      await this.#sendPiece(slot, positions, '', false, free);
      return slot;
    }
    const { report } = this.#piece(slot, positions, '');
    slot.reports.push(report);
    this.#fail(slot, positions, {
      code: 'not_sent',
      message:
        this.#stopper === undefined
          ? 'Not sent: another row of this chunk was refused and the API takes a request whole; fix it and send this row again'
          : `Not sent: chunk ${this.#stopper.index} failed with ${this.#stopper.code}; send this row again`,
      retryable: true,
    });
    return slot;
  }

  // The rows at `positions` of a slot as one request: body, key (a split piece's names its place), report.
  // A piece of a chunk split for its bytes is keyed by where it starts, not by its size: its first piece
  // keeps the chunk's own key. A body cap sits in front of the service (its 413 never reaches the service's
  // idempotency layer), so when an earlier run sent the chunk in other sizes, a piece's key holds a piece of
  // another size starting there, and the service answers 409 instead of creating the rows again.
  #piece(slot: Slot<Input, Result>, positions: number[], part: string, byStart = false) {
    const { field, baseKey } = this.#spec;
    const rows = positions.map((i) => slot.inputs[i] as Input);
    // `stableJson({ [field]: rows })`, from each row's JSON: the rows' part of it is what is hashed.
    const rowsJson = `[${positions.map((i) => slot.json[i]).join(',')}]`;
    const bodyJson = `{${JSON.stringify(field)}:${rowsJson}}`;
    const base = chunkKey(baseKey, slot.index);
    const start = positions[0] as number;
    const key =
      byStart && slot.key !== undefined
        ? start === slot.start
          ? slot.key
          : idempotencyKeyOfJson(`${slot.key}@${start}`, '')
        : idempotencyKeyOfJson(part === '' ? base : `${base}/${part}`, rowsJson);
    const report: BulkChunkReport = {
      index: slot.index,
      rows: rows.length,
      idempotencyKey: key,
      sent: false,
      status: undefined,
      requestId: undefined,
      attempts: 0,
      error: undefined,
      ...(part === '' ? {} : { part }),
    };
    return { rows, bodyJson, report };
  }

  async #sendPiece(
    slot: Slot<Input, Result>,
    positions: number[],
    part: string,
    byStart = false,
    free?: () => void,
  ): Promise<void> {
    const spec = this.#spec;
    if (slot.blocked !== undefined) {
      this.#sentBefore += positions.length;
      return this.#fail(slot, positions, slot.blocked);
    }
    const { rows, bodyJson, report } = this.#piece(slot, positions, part, byStart);
    if (part === '') Object.assign(slot, { key: report.idempotencyKey, start: positions[0] });
    const bytes = () => Buffer.byteLength(bodyJson);
    // Split unsent what is as large as a body already refused: the service would refuse it too.
    const known = rows.length > 1 ? knownTooLarge(this.#fit, bytes, rows.length) : undefined;
    if (known !== undefined) return this.#halves(slot, positions, part, byStart || known === 'bytes');
    slot.reports.push(report);
    report.sent = true;
    try {
      const { data, response } = await spec.send(rows, report.idempotencyKey, bodyJson, free).withResponse();
      const { status, requestId, attempts } = response;
      Object.assign(report, { status, requestId, attempts });
      this.#answers.count += 1;
      if (response.replayed) this.#answers.replayed += 1;
      slot.last = response;
      if (part !== '') this.#fitted(report);
      const paired = this.#pair(rows, data);
      for (const [i, position] of positions.entries()) slot.results[position] = paired[i];
      if (response.replayed) {
        report.replayed = true;
        const again = positions.filter((p) => spec.retryable(slot.results[p] as Result));
        this.#replayedRetryable += again.length;
      }
      const missing = positions.filter((position) => slot.results[position] === undefined);
      const message = 'The API returned no result for this row';
      this.#fail(slot, missing, { code: 'missing_result', message, retryable: true });
    } catch (error) {
      if (error instanceof APIUserAbortError || !(error instanceof PartnerEquityError)) throw error;
      const answer = error instanceof APIError ? error : undefined;
      const attempts = 'attempts' in error && typeof error.attempts === 'number' ? error.attempts : 1;
      Object.assign(report, { error, status: answer?.status, requestId: answer?.requestId, attempts });
      const refusal = sizeRefusal(error);
      if (refusal !== undefined && rows.length > 1) {
        report.split = true;
        if (refusal === 'bytes')
          this.#fit.refusedBytes = Math.min(bytes(), this.#fit.refusedBytes ?? bytes());
        else this.#fit.refusedRows = Math.min(rows.length, this.#fit.refusedRows ?? rows.length);
        return this.#halves(slot, positions, part, byStart || refusal === 'bytes');
      }
      if (error instanceof ConflictError && (part === '' || byStart)) {
        // The chunk's key holds another size of it (an earlier run split it to fit a cap that changed since):
        // look for that size through the first pieces; the others go only once one of them is answered.
        if (rows.length > 1) {
          report.split = true;
          return this.#halves(slot, positions, part, true);
        }
        slot.blocked = { code: 'chunk_sent_before', message: SENT_BEFORE, retryable: false };
        return this.#sendPiece(slot, positions, part); // fails them, counted
      }
      const retryable = isRetryable(error);
      this.#fail(slot, positions, {
        code: 'request_failed',
        message: `The request for this row failed: ${error.message}`,
        retryable,
      });
      // Stop later chunks on an error they would all get (401, 403, 404…), not on one about these rows.
      if (!retryable && refusal === undefined && !namesRows(error) && this.#stopper === undefined) {
        report.stopped = true;
        this.#stopper = { index: report.index, code: error.code };
      }
    }
  }

  // One half after the other: the chunk keeps its one place among the requests in flight.
  async #halves(slot: Slot<Input, Result>, positions: number[], part: string, byStart: boolean) {
    const half = Math.ceil(positions.length / 2);
    await this.#sendPiece(slot, positions.slice(0, half), `${part}0`, byStart);
    await this.#sendPiece(slot, positions.slice(half), `${part}1`, byStart);
  }

  #fitted(report: BulkChunkReport): void {
    const fit = this.#fit;
    fit.fittedRows = Math.max(fit.fittedRows ?? 0, report.rows);
    report.fittedRows = fit.fittedRows;
    if (this.#warned) return;
    this.#warned = true;
    const refused = [
      fit.refusedBytes && `bodies of ${fit.refusedBytes} bytes`,
      fit.refusedRows && `${fit.refusedRows} rows`,
    ];
    this.#spec.requester.config.logger.warn(
      `${this.#spec.operation}: the service refused ${refused.filter(Boolean).join(' and ')} as too large; chunks are split in half to fit (${fit.fittedRows} rows per request worked) and this client splits such chunks before sending from now on`,
      { refusedBytes: fit.refusedBytes, refusedRows: fit.refusedRows, fittedRows: fit.fittedRows },
    );
  }

  // Said once a call: a replayed answer repeats its transient row failures for as long as the API keeps it.
  #warnReplayed(): void {
    const { operation, requester } = this.#spec;
    if (this.#sentBefore > 0)
      requester.config.logger.warn(
        `${operation}: ${this.#sentBefore} rows were not sent (chunk_sent_before): ${SENT_BEFORE}`,
        { sentBefore: this.#sentBefore },
      );
    if (this.#replayedRetryable === 0) return;
    requester.config.logger.warn(
      `${operation}: ${this.#replayedRetryable} rows failed transiently in answers the API replayed from an earlier run with this idempotencyKey; it replays them for 24 h, so send result.retryable again with a new idempotencyKey`,
      { replayedRetryable: this.#replayedRetryable },
    );
  }

  #fail(slot: Slot<Input, Result>, positions: readonly number[], error: RowError): void {
    for (const i of positions) slot.results[i] = this.#spec.failure(slot.rows[i] as Input, error);
  }

  async #deliver(slot: Slot<Input, Result>): Promise<void> {
    const results = slot.results as Result[];
    const succeeded = results.filter((result) => this.#spec.succeeded(result)).length;
    this.counts.done += results.length;
    if (this.#checked !== undefined)
      this.#refusedAhead -= slot.rows.length - slot.inputs.filter((i) => i !== undefined).length;
    this.counts.succeeded += succeeded;
    this.#reports.push(...slot.reports);
    this.#last = slot.last ?? this.#last;
    if (this.#spec.onChunk === undefined || Array.isArray(this.#spec.inputs)) {
      this.#rows.push(...slot.rows);
      this.#results.push(...results);
    }
    results.forEach((result, i) => {
      if (this.#spec.retryable(result)) this.#retryable.push(slot.rows[i] as Input);
    });
    // Outside any try: an exception from the caller's callback ends the call rather than failing rows.
    await this.#spec.onChunk?.({ index: slot.index, rows: slot.rows, results, reports: slot.reports });
    this.#progress();
  }

  #progress(): void {
    const { succeeded, read } = this.counts;
    const done = this.counts.done + this.#refusedAhead;
    const total = this.#checked?.length ?? read;
    this.#spec.onProgress?.({ done, total, succeeded, failed: done - succeeded });
  }

  // One response for the whole call: the last answered chunk's, with every chunk's attempts and the call's
  // own key. Status 0 and no headers when nothing was sent (every row was refused before sending).
  #summary(): RawResponse {
    const { count, replayed } = this.#answers;
    const last = this.#last;
    return {
      status: last?.status ?? 0,
      headers: last?.headers ?? new Headers(),
      requestId: last?.requestId,
      attempts: this.#reports.reduce((sum, report) => sum + report.attempts, 0),
      idempotencyKey: this.#spec.baseKey,
      replayed: count > 0 && replayed === count,
    };
  }

  // Results by row: by key when every row and result has one, else by position when the counts agree.
  #pair(rows: readonly Input[], data: readonly Result[]): (Result | undefined)[] {
    const byKey = new Map(data.map((result) => [this.#spec.resultKeyOf(result), result]));
    const keys = rows.map((row) => this.#spec.keyOf(row));
    if (!byKey.has(undefined) && !keys.includes(undefined)) return keys.map((key) => byKey.get(key));
    return data.length === rows.length ? [...data] : [];
  }
}
