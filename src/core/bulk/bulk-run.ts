import { startSpan, within } from '../../tracing/tracing.js';
import type { PartnerEquityError } from '../errors/errors.js';
import type { APIPromise, RawResponse } from '../request/api-promise.js';
import { stableJson } from '../request/idempotency.js';
import type { Requester } from '../request/requester.js';
import type { BulkChunk, BulkChunkReport, BulkProgress } from './bulk-chunk.js';
import { ChunkSender, type RowError, type Slot } from './chunk-sender.js';
import { orderedPool } from './ordered-pool.js';

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
  /** Sends one chunk; `json` is its body as stable JSON (its key hashed from it). */
  send(rows: Input[], key: string, json: string): APIPromise<readonly Result[]>;
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
        // The size actually sent: the most rows a request carried that was not split.
        'partner_equity.bulk.chunk_size':
          Math.max(
            0,
            ...chunks.filter((c) => c.sent && !c.split && c.status !== undefined).map((c) => c.rows),
          ) || undefined,
      }),
  );
}

class BulkRun<Input, Result> {
  readonly #spec: BulkRunSpec<Input, Result>;
  readonly #sender: ChunkSender<Input, Result>;
  readonly #rows: Input[] = [];
  readonly #results: Result[] = [];
  readonly #reports: BulkChunkReport[] = [];
  readonly #retryable: Input[] = [];
  /** Rows read, answered (`done`) and succeeded so far. */
  readonly counts = { read: 0, done: 0, succeeded: 0 };
  #last: RawResponse | undefined; // the last answered chunk's response, in input order
  // With onProgress, an array's rows are checked up front: progress counts its refused rows from the start.
  #checked: ReturnType<BulkRunSpec<Input, Result>['check']>[] | undefined;
  #refusedAhead = 0;

  constructor(spec: BulkRunSpec<Input, Result>) {
    this.#spec = spec;
    this.#sender = new ChunkSender(spec);
  }

  async run(): Promise<BulkRunOutcome<Input, Result>> {
    const spec = this.#spec;
    const array = Array.isArray(spec.inputs) ? (spec.inputs as readonly Input[]) : undefined;
    // Only progress needs them early; else each chunk is checked as it is read, while others are in flight.
    this.#checked = spec.onProgress && array?.map((row, position) => spec.check(row, position));
    this.#refusedAhead = this.#checked?.filter((checked) => 'result' in checked).length ?? 0;
    const iterator: Iterator<Input> | AsyncIterator<Input> =
      array?.[Symbol.iterator]() ?? (spec.inputs as AsyncIterable<Input>)[Symbol.asyncIterator]();
    let ended = false;
    let readError: { error: unknown } | undefined;
    let index = 0;
    // Chunks in input order, `concurrency` requests in flight; a chunk is read and checked once a lane is free.
    const take = async (): Promise<Slot<Input, Result> | undefined> => {
      let rows: Input[];
      try {
        rows = await this.#take(iterator);
      } catch (error) {
        readError = { error }; // the chunks not yet sent are not sent; the ones in flight finish
        return undefined;
      }
      ended = rows.length === 0;
      return ended ? undefined : this.#check(index++, rows);
    };
    try {
      await orderedPool({
        take,
        send: (slot) => this.#sender.send(slot),
        deliver: (slot) => this.#deliver(slot),
        limit: spec.concurrency,
      });
    } finally {
      if (!ended) await iterator.return?.();
    }
    if (readError !== undefined) throw readError.error;
    if (this.counts.read === 0) this.#progress();
    this.#sender.warn();
    return {
      rows: this.#rows,
      results: this.#results,
      retryable: this.#retryable,
      chunks: this.#reports,
      response: this.#summary(),
      error: this.#reports.find((report) => report.stopped === true)?.error,
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
    const { count, replayed } = this.#sender.answers;
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
}
