import { handledBy, recordEvent } from '../../tracing/tracing.js';
import { APIError, APIUserAbortError, ConflictError, PartnerEquityError } from '../errors/errors.js';
import type { RawResponse } from '../request/api-promise.js';
import { chunkKey, idempotencyKeyOfJson } from '../request/idempotency.js';
import { isRetryable } from '../request/retry-policy.js';
import type { BulkChunkReport } from './bulk-chunk.js';
import type { BulkRunSpec } from './bulk-run.js';
import { chunkFitOf, knownTooLarge, namesRows, sizeRefusal } from './chunk-fit.js';

export type RowError = { code: string; message: string; retryable: boolean };

const SENT_BEFORE =
  "an earlier run with this idempotencyKey sent the chunk's rows in another size, and a body cap now in front of the service keeps its answer from being replayed; nothing was sent again, so nothing is created twice. Look the rows up, and send the missing ones with a new idempotencyKey";

/** One chunk as read: its rows, the checked rows to send, their JSON (reused by halves), results, requests. */
export interface Slot<Input, Result> {
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

/**
 * Sends one chunk's rows as one request, or, when the service refuses it as too large, as pieces, one after
 * the other; fills each row's result and the chunk's reports. Holds what a call learns across its chunks:
 * the size that fits, the error that stops later chunks, what to warn about at the end.
 */
export class ChunkSender<Input, Result> {
  readonly #spec: BulkRunSpec<Input, Result>;
  readonly #fit;
  /** Chunk requests answered, and of them replayed. */
  readonly answers = { count: 0, replayed: 0 };
  #stopper: { index: number; code: string } | undefined; // the chunk whose error stops later ones
  #warned = false;
  #replayedRetryable = 0; // rows failed transiently in answers replayed from an earlier run
  #sentBefore = 0; // rows not sent: their chunk's key holds another size of it (`chunk_sent_before`)

  constructor(spec: BulkRunSpec<Input, Result>) {
    this.#spec = spec;
    this.#fit = chunkFitOf(spec.requester.config.chunkFits, spec.operation);
  }

  async send(slot: Slot<Input, Result>): Promise<Slot<Input, Result>> {
    const positions = slot.rows.flatMap((_, i) => (slot.results[i] === undefined ? [i] : []));
    if (positions.length === 0) return slot;
    const held = this.#spec.wholeChunks === true && positions.length < slot.rows.length;
    if (this.#stopper === undefined && !held) {
      await this.#sendPiece(slot, positions, '');
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
    const key = byStart // a piece: `slot.key` is the chunk's, set when it was first tried
      ? start === slot.start
        ? (slot.key as string)
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
    if (known !== undefined)
      return this.#halves(slot, positions, part, byStart || known === 'bytes', known, true);
    // Why an error splits this piece: its size, or (409) its key holding another size of the chunk.
    const splits = (error: unknown) =>
      rows.length < 2
        ? undefined
        : (sizeRefusal(error) ??
          (error instanceof ConflictError && (part === '' || byStart) ? ('conflict' as const) : undefined));
    slot.reports.push(report);
    report.sent = true;
    try {
      // A failure split here is handled: the request's CLIENT span does not end as an ERROR.
      const { data, response } = await handledBy(
        (error) => (splits(error) === undefined ? undefined : 'split'),
        () => spec.send(rows, report.idempotencyKey, bodyJson).withResponse(),
      );
      const { status, requestId, attempts } = response;
      Object.assign(report, { status, requestId, attempts });
      this.answers.count += 1;
      if (response.replayed) this.answers.replayed += 1;
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
      const split = splits(error);
      if (split !== undefined) {
        report.split = true;
        if (split === 'bytes') this.#fit.refusedBytes = Math.min(bytes(), this.#fit.refusedBytes ?? bytes());
        if (split === 'rows')
          this.#fit.refusedRows = Math.min(rows.length, this.#fit.refusedRows ?? rows.length);
        // On a 409 the chunk's key holds another size of it (an earlier run split it to fit a cap that changed
        // since): that size is looked for through the first pieces; the others go once one is answered.
        return this.#halves(slot, positions, part, byStart || split !== 'rows', split);
      }
      if (error instanceof ConflictError && (part === '' || byStart)) {
        slot.blocked = { code: 'chunk_sent_before', message: SENT_BEFORE, retryable: false };
        return this.#sendPiece(slot, positions, part); // fails them, counted
      }
      const refusal = sizeRefusal(error);
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

  // One half after the other: the chunk keeps its one place among the requests in flight. The split is an
  // event on the bulk call's span, with the sizes before and after.
  async #halves(
    slot: Slot<Input, Result>,
    positions: number[],
    part: string,
    byStart: boolean,
    reason: 'bytes' | 'rows' | 'conflict',
    beforeSending = false,
  ) {
    const half = Math.ceil(positions.length / 2);
    recordEvent('split', {
      'partner_equity.bulk.chunk_index': slot.index,
      'partner_equity.bulk.split.reason': reason,
      'partner_equity.bulk.split.rows_before': positions.length,
      'partner_equity.bulk.split.rows_after': half,
      'partner_equity.bulk.split.before_sending': beforeSending || undefined,
    });
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

  // Said once a call, at its end: rows not sent for their key, and transient failures a replay repeats.
  warn(): void {
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

  // Results by row: by key when every row and result has one, else by position when the counts agree.
  #pair(rows: readonly Input[], data: readonly Result[]): (Result | undefined)[] {
    const byKey = new Map(data.map((result) => [this.#spec.resultKeyOf(result), result]));
    const keys = rows.map((row) => this.#spec.keyOf(row));
    if (!byKey.has(undefined) && !keys.includes(undefined)) return keys.map((key) => byKey.get(key));
    return data.length === rows.length ? [...data] : [];
  }
}
