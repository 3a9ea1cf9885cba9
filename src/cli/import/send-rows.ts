import type { BulkChunkReport, PartnerEquity, PartnerEquityError } from '../../index.js';
import { type CheckedRow, checkedRows, invalidOutcome, type RowSource } from './checked-rows.js';
import type { RowOutcome } from './import-kind.js';

/** How pass 2 sends the file. */
export interface SendPlan extends RowSource {
  client: PartnerEquity;
  chunkSize: number;
  concurrency: number;
  /** The call's idempotency key: names the kind, the SPV and the chunk size. */
  namespace: string;
  /** Polled between rows: true once the user asked to stop. */
  stopRequested(): boolean;
  /** Called with each finished chunk, in input order, and its requests. */
  onChunk(
    rows: readonly CheckedRow[],
    outcomes: readonly RowOutcome[],
    reports: readonly BulkChunkReport[],
  ): Promise<void>;
}

/** How pass 2 ended. */
export interface SendOutcome {
  /** Stopped on request before the end of the file. */
  stopped: boolean;
  /** The error that stopped the import: one every later request would get too (401, 403, 404…). */
  fatal?: PartnerEquityError;
}

/** Thrown into the SDK's read of the rows to end it: the chunk being filled is not sent. */
const STOP = new Error('import stopped');

/**
 * Streams the file's checked rows into the SDK's bulk call (a refused row keeps its place, so chunk k holds
 * rows [k·size, (k+1)·size) of the file and the SDK derives the same keys on every run). Outcomes come back
 * a chunk at a time, in file order. Stops reading on request or on an error that stopped the SDK's call;
 * the chunks in flight are answered first.
 */
export async function sendRows(plan: SendPlan): Promise<SendOutcome> {
  const result: SendOutcome = { stopped: false };
  const unanswered: CheckedRow[] = [];
  // The file line of each row of the call, by its index in the call (4 bytes a row).
  const lineOfIndex = new Lines();
  // Errors of chunks the API refused for their rows (a 4xx that did not stop the call): row failures,
  // already in the chunk's outcomes, even when no chunk got through.
  const aboutRows = new Set<unknown>();
  // The SDK's call resolves whatever its chunks met: when not one was answered, the first chunk's error
  // (a 503, a timeout, a 429 past the wait) stopped the import, as it would stop a re-run sent now.
  let answered = false;
  let firstFailure: PartnerEquityError | undefined;
  async function* inputs(): AsyncGenerator<Record<string, unknown> | null> {
    for await (const rows of checkedRows(plan)) {
      for (const row of rows) {
        if (plan.stopRequested() || result.fatal !== undefined) throw STOP;
        unanswered.push(row);
        lineOfIndex.push(row.line);
        yield row.input ?? null;
      }
    }
  }
  try {
    await plan.kind.send(plan.client, inputs(), {
      idempotencyKey: plan.namespace,
      chunkSize: plan.chunkSize,
      concurrency: plan.concurrency,
      onChunk: async (outcomes, reports) => {
        const rows = unanswered.splice(0, outcomes.length);
        const stopper = reports.find((report) => report.stopped === true)?.error;
        if (stopper !== undefined) result.fatal ??= stopper;
        for (const { error, status, stopped, split } of reports) {
          const refusal = status !== undefined && status >= 400 && status < 500 && status !== 408;
          if (refusal && status !== 429 && stopped !== true) aboutRows.add(error);
          if (error === undefined) answered = true;
          else if (split !== true) firstFailure ??= error;
        }
        const final = rows.map((row, i) =>
          row.problems === undefined ? (outcomes[i] as RowOutcome) : invalidOutcome(row.problems),
        );
        withFileLines(final, lineOfIndex);
        for (const [i, row] of rows.entries()) {
          // The same person again (the check warned): the SDK sent the first row only, which is not a failure.
          const error = final[i]?.error;
          if (
            error?.code === 'duplicate_in_request' &&
            row.warnings?.some((w) => w.code === 'repeated_person')
          )
            final[i] = { status: 'repeated' };
        }
        await plan.onChunk(rows, final, reports);
      },
    });
    // No chunk answered: its first error stops the import, unless it only refused rows of the file.
    if (!answered && firstFailure !== undefined && !aboutRows.has(firstFailure))
      result.fatal ??= firstFailure;
  } catch (error) {
    if (error !== STOP) throw error;
  }
  result.stopped = plan.stopRequested();
  return result;
}

// "appears at index 3 of this call": a row of the bulk call, counted from 0.
const CALL_INDEX = /\bindex (\d+)\b/g;

/** The file line of each row of a call, in a growing Uint32Array. */
export class Lines {
  #lines = new Uint32Array(1024);
  #length = 0;

  push(line: number): void {
    if (this.#length === this.#lines.length) {
      const grown = new Uint32Array(this.#lines.length * 2);
      grown.set(this.#lines);
      this.#lines = grown;
    }
    this.#lines[this.#length] = line;
    this.#length += 1;
  }

  at(index: number): number | undefined {
    return index < this.#length ? this.#lines[index] : undefined;
  }
}

/** Adds the file line to each call index a row's message names: `index 3 (line 5 of the file)`. */
export function withFileLines(outcomes: RowOutcome[], lines: Lines): void {
  outcomes.forEach((outcome, position) => {
    const error = outcome.error;
    if (error === undefined || !error.message.includes('index ')) return;
    const message = error.message.replace(CALL_INDEX, (text, index: string) => {
      const line = lines.at(Number(index));
      return line === undefined ? text : `${text} (line ${line} of the file)`;
    });
    // A copy: one error object may stand for several rows.
    outcomes[position] = { ...outcome, error: { ...error, message } };
  });
}
