import {
  APIConnectionError,
  APIError,
  BadRequestError,
  type PartnerEquity,
  PartnerEquityError,
} from '../../index.js';
import { type CheckedRow, checkedRows, invalidOutcome, type RowSource } from './checked-rows.js';
import type { RowOutcome } from './import-kind.js';

/** How pass 2 sends the file. */
export interface SendPlan extends RowSource {
  client: PartnerEquity;
  chunkSize: number;
  concurrency: number;
  /** Prefix of every chunk's key: names the kind, the SPV and the chunk size. */
  namespace: string;
  /** Polled between rows: true once the user asked to stop. */
  stopRequested(): boolean;
  /** Called with each finished chunk, in input order. */
  onChunk(rows: readonly CheckedRow[], outcomes: readonly RowOutcome[]): Promise<void>;
}

/** How pass 2 ended. */
export interface SendOutcome {
  /** Stopped on request before the end of the file. */
  stopped: boolean;
  /** The error that stopped the import: one every later request would get too (401, 403, 404…). */
  fatal?: PartnerEquityError;
}

// The SDK already retried these (its retry policy's rule): the rows may pass on a later run.
function isTransient(error: unknown): boolean {
  if (error instanceof APIError) return error.status === 408 || error.status === 429 || error.status >= 500;
  return error instanceof APIConnectionError;
}

/**
 * Sends the file's rows in chunks of `chunkSize` data rows (chunk k holds rows [k·size, (k+1)·size) of the
 * file, refused rows leaving holes), `concurrency` at a time, reading ahead no further. Chunk k's key is
 * derived by the SDK from `${namespace}:${k}` and the rows sent, so the same file sends the same keys on
 * every run. Stops early on request (after the chunks in flight) or on a fatal error.
 */
export async function sendRows(plan: SendPlan): Promise<SendOutcome> {
  const result: SendOutcome = { stopped: false };
  const inFlight: Promise<{ rows: CheckedRow[]; outcomes: RowOutcome[] }>[] = [];
  let chunk: CheckedRow[] = [];
  let index = 0;
  const dispatch = () => {
    const rows = chunk;
    const k = index++;
    chunk = [];
    inFlight.push(sendChunk(plan, rows, k, result).then((outcomes) => ({ rows, outcomes })));
  };
  const drain = async (keep: number) => {
    while (inFlight.length > keep) {
      const { rows, outcomes } = await (inFlight.shift() as (typeof inFlight)[number]);
      await plan.onChunk(rows, outcomes);
    }
  };
  for await (const row of checkedRows(plan)) {
    if (plan.stopRequested() || result.fatal !== undefined) break;
    chunk.push(row);
    if (chunk.length < plan.chunkSize) continue;
    dispatch();
    await drain(plan.concurrency - 1);
  }
  result.stopped = plan.stopRequested();
  if (chunk.length > 0 && !result.stopped && result.fatal === undefined) dispatch();
  await drain(0);
  return result;
}

async function sendChunk(
  plan: SendPlan,
  rows: readonly CheckedRow[],
  index: number,
  result: SendOutcome,
): Promise<RowOutcome[]> {
  const outcomes: (RowOutcome | undefined)[] = rows.map((row) =>
    row.problems === undefined ? undefined : invalidOutcome(row.problems),
  );
  const positions = rows.flatMap((row, position) => (row.input === undefined ? [] : [position]));
  const bad = rows.filter((row) => row.problems !== undefined);
  const fill = (each: (i: number) => RowOutcome) => {
    positions.forEach((position, i) => {
      outcomes[position] = each(i);
    });
  };
  if (positions.length === 0) return outcomes as RowOutcome[];
  if (plan.kind.holdBackChunkWithBadRow && bad.length > 0) {
    const lines = bad.map((row) => row.line).join(', ');
    fill(() =>
      notSent(`line ${lines} of this chunk is invalid and the API takes a chunk whole; fix it and run again`),
    );
  } else {
    try {
      const inputs = positions.map((position) => rows[position]?.input as Record<string, unknown>);
      const sent = await plan.kind.send(plan.client, inputs, `${plan.namespace}:${index}`);
      fill(
        (i) =>
          sent[i] ?? {
            status: 'failed',
            error: {
              code: 'missing_result',
              message: 'The API returned no result for this row',
              retryable: true,
            },
          },
      );
    } catch (error) {
      if (!(error instanceof PartnerEquityError)) throw error;
      const refused = plan.kind.refused?.(error, positions.length);
      if (refused !== undefined) fill((i) => refused[i] as RowOutcome);
      else {
        const retryable = isTransient(error);
        if (!retryable && !(error instanceof BadRequestError)) result.fatal ??= error;
        fill(() => ({
          status: 'failed',
          error: {
            code: 'request_failed',
            message: `The request for this row failed: ${error.message}`,
            retryable,
          },
        }));
      }
    }
  }
  return outcomes as RowOutcome[];
}

function notSent(why: string): RowOutcome {
  return { status: 'failed', error: { code: 'not_sent', message: `Not sent: ${why}`, retryable: true } };
}
