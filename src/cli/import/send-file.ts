import {
  APIConnectionError,
  type BulkChunkReport,
  InternalServerError,
  NotFoundError,
  type PartnerEquity,
  type PartnerEquityError,
  RateLimitError,
} from '../../index.js';
import { formatError } from '../format-error.js';
import { FailureReasons } from './failure-reasons.js';
import { IMPORT_EXIT } from './import-exit.js';
import type { RowOutcome } from './import-kind.js';
import type { ImportIo, ImportRequest } from './import-request.js';
import { type ImportCounts, Progress, type ProgressMode } from './progress.js';
import { ResultsFile, resultCells, resultsLayout } from './results-file.js';
import type { RunJournal } from './run-journal.js';
import type { ScanResult } from './scan-rows.js';
import { sendRows } from './send-rows.js';

/** Counts as every line of the import writes them: `3,000`. */
const n = (count: number) => count.toLocaleString('en');

const SIGNAL_EXIT: Record<string, number> = { SIGINT: IMPORT_EXIT.interrupted, SIGTERM: 143 };

function progressMode(request: ImportRequest, io: ImportIo): ProgressMode {
  if (request.json) return 'json';
  if (request.quiet) return 'quiet';
  return (io.stderr as { isTTY?: boolean }).isTTY === true ? 'tty' : 'plain';
}

/**
 * Pass 2: sends the checked file, writes `--out` and progress as chunks finish, and ends with a summary
 * and the exit status (done, rows failed, interrupted, or 1 when an error stopped the import).
 */
export async function sendFile(
  request: ImportRequest,
  scan: ScanResult,
  client: PartnerEquity,
  io: ImportIo,
): Promise<number> {
  const { kind, file } = request.source;
  const label = request.label ?? file;
  const layout = scan.columns === undefined ? undefined : resultsLayout(kind, scan.columns);
  const results =
    request.out === undefined || layout === undefined
      ? undefined
      : await ResultsFile.create(request.out, layout.header, { delimiter: scan.delimiter ?? ',' });
  const progress = new Progress(io, progressMode(request, io));
  const counts: ImportCounts = { done: 0, total: scan.total, failed: 0 };
  const reasons = new FailureReasons();
  let ended: Awaited<ReturnType<typeof sendRows>>;
  try {
    ended = await sendRows({
      ...request.source,
      client,
      chunkSize: request.chunkSize,
      concurrency: request.concurrency,
      namespace: request.namespace,
      stopRequested: request.stopRequested,
      onChunk: async (rows, answered, reports) => {
        counts.done += rows.length;
        const outcomes = replayedMarked(request.journal, answered, reports);
        if (kind.name === 'subscriptions' && request.journal?.splitSince(reports) === true) {
          io.stderr.write(
            `warning: lines ${rows[0]?.line}-${rows.at(-1)?.line} were created in one request by an earlier run; the service now refuses requests that large, so this run sent them again in smaller ones under new keys: their subscriptions may now exist twice (check them before anything else)\n`,
          );
        }
        await request.journal?.record(reports);
        // Chunks the service refused as too large were split: the progress line says what size worked.
        for (const report of reports)
          if (report.fittedRows !== undefined) counts.fittedRows = report.fittedRows;
        outcomes.forEach((outcome, index) => {
          const row = rows[index];
          if (row !== undefined) request.onRow?.(row, outcome);
          if (outcome.error === undefined) return;
          counts.failed += 1;
          reasons.add(outcome.error, rows[index]?.line ?? 0);
        });
        if (results !== undefined && layout !== undefined) {
          await results.write(
            rows.map((row, index) => resultCells(layout, row, outcomes[index] ?? { status: '' })),
          );
        }
        progress.update(counts);
      },
    });
  } finally {
    await results?.close();
  }
  progress.finish(counts);
  const status =
    ended.fatal !== undefined
      ? 'failed'
      : ended.stopped
        ? 'interrupted'
        : counts.failed > 0
          ? 'rows-failed'
          : 'done';
  const where = request.out === undefined ? '' : ` (results in ${request.out})`;
  if (request.json) {
    const summary = {
      type: 'summary',
      status,
      file,
      ...counts,
      succeeded: counts.done - counts.failed,
      seconds: Math.round(progress.seconds * 1000) / 1000,
      out: request.out,
      reasons: reasons.json(),
    };
    io.stdout.write(`${JSON.stringify(summary)}\n`);
  }
  if (ended.fatal !== undefined) {
    io.stderr.write(formatError(ended.fatal, `import ${kind.name}`));
    if (ended.fatal instanceof NotFoundError && kind.name === 'subscriptions') {
      io.stderr.write(
        'No such SPV for this client: `partner-equity spv-requests list --status approved` shows the SPV slugs to import into (an approved spvr_… slug works too).\n',
      );
    }
    // Rows of chunks the error refused count as failed: "done" is only what the API did.
    const next = isTransient(ended.fatal)
      ? 'the service was unavailable; run the same command again (rows done are replayed, not created again)'
      : 'fix the cause and run the same command again';
    io.stderr.write(
      `Stopped with ${n(counts.done - counts.failed)} of ${n(counts.total)} rows done${where}; ${next}.\n`,
    );
    return 1;
  }
  if (ended.stopped) {
    io.stderr.write(
      `Interrupted after ${n(counts.done)} of ${n(counts.total)} rows${where}. Run the same command again to resume: ` +
        'chunks already sent are replayed by the API (for 24 hours), not created again.\n',
    );
    return SIGNAL_EXIT[request.signal() ?? 'SIGINT'] ?? IMPORT_EXIT.interrupted;
  }
  if (!request.json && counts.failed > 0) {
    io.stderr.write(reasons.describe());
    if (reasons.allTransient()) {
      io.stderr.write(
        'The service was unavailable for these rows: run the same command again (rows done are replayed, not created again).\n',
      );
    }
  }
  if (!request.json && !request.quiet) {
    const seconds = progress.seconds.toFixed(1);
    const tail = counts.failed === 0 ? '' : request.out === undefined ? ' (--out <file> lists them)' : where;
    io.stderr.write(
      counts.failed === counts.total && counts.total > 0
        ? `Imported nothing from ${label}: every one of its ${n(counts.total)} rows failed${tail}, in ${seconds} s\n`
        : `Imported ${label}: ${n(counts.done - counts.failed)} of ${n(counts.total)} rows done, ${n(counts.failed)} failed${tail}, in ${seconds} s\n`,
    );
  }
  return counts.failed > 0 ? IMPORT_EXIT.rowsFailed : IMPORT_EXIT.done;
}

/** An error a later run may not get: the service down or busy, or the network. */
function isTransient(error: PartnerEquityError): boolean {
  return (
    error instanceof InternalServerError ||
    error instanceof APIConnectionError ||
    error instanceof RateLimitError
  );
}

/**
 * Rows of a request an earlier run had answered (the journal knows its key) are `replayed`: the API gave
 * back that run's answer, and nothing was created now.
 */
function replayedMarked(
  journal: RunJournal | undefined,
  outcomes: readonly RowOutcome[],
  reports: readonly BulkChunkReport[],
): readonly RowOutcome[] {
  const [report] = reports;
  if (journal === undefined || reports.length !== 1 || report === undefined || !journal.replayed(report))
    return outcomes;
  return outcomes.map((outcome) =>
    outcome.error === undefined ? { ...outcome, status: 'replayed' } : outcome,
  );
}
