import type { PartnerEquityError } from '../errors/errors.js';

/** Where a long bulk call stands; reported after every chunk (the last report has `done === total`). */
export interface BulkProgress {
  /** Rows answered so far (including rows refused before sending). */
  done: number;
  /** The rows of the call: an array's length; for an `AsyncIterable`, the rows read so far. */
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
  /** On a piece of a chunk split to fit: which halves it is (`'01'`: the first half's second half). */
  part?: string;
  /** `true` when the service refused it as too large: its rows were sent again in two halves. */
  split?: boolean;
  /** On a piece that got through after a split: the most rows one request has carried since. */
  fittedRows?: number;
  /**
   * `true` when the API replayed the answer it gave this key before (`Idempotent-Replayed`): nothing was
   * written now, and the rows it failed transiently then fail the same way until the key expires (24 h).
   */
  replayed?: boolean;
  /** `true` when its failure stopped the call: later chunks were not sent. */
  stopped?: boolean;
}

/** One chunk of a bulk call, handed to `onChunk` in input order once every row of it is answered. */
export interface BulkChunk<Input, Result> {
  /** The chunk's slot: rows `[index * chunkSize, (index + 1) * chunkSize)` of the input. */
  index: number;
  /** Its input rows, including rows refused before sending. */
  rows: readonly Input[];
  /** One result per row, in the order of `rows`. */
  results: readonly Result[];
  /** Its requests: none when every row was refused before sending, several when it was split to fit. */
  reports: readonly BulkChunkReport[];
}
