import { once } from 'node:events';
import { type CheckedRow, checkedRows, type RowSource } from './checked-rows.js';
import type { ColumnMap } from './columns.js';
import type { ImportIo } from './import-request.js';

/** What the check pass found. */
export interface ScanResult {
  /** Data rows in the file. */
  total: number;
  /** Rows the local check refused. */
  bad: number;
  /** The pass ended early on request. */
  stopped: boolean;
  /** Cells whose surrounding spaces were trimmed. */
  trimmed: number;
  /** How the header was read (undefined for a file with no header line). */
  columns?: ColumnMap | undefined;
}

/** How the check pass reports bad rows: every one (`--check`), or none (before an import). */
export interface ScanOptions extends RowSource {
  report?: { io: ImportIo; json: boolean } | undefined;
  stopRequested(): boolean;
}

/** `line 12: email: Expected an e-mail address; dob: …` */
function badRowLine(row: CheckedRow): string {
  const problems = (row.problems ?? []).map(({ column, reason }) =>
    column === '' ? reason : `${column}: ${reason}`,
  );
  return `line ${row.line}: ${problems.join('; ')}\n`;
}

/**
 * Pass 1: reads the whole file and checks every row locally (the SDK's schemas), sending nothing. Counts
 * the rows for progress, and proves the file readable to the end before an import sends its first chunk.
 */
export async function scanRows(options: ScanOptions): Promise<ScanResult> {
  const result: ScanResult = { total: 0, bad: 0, stopped: false, trimmed: 0 };
  const onColumns = (columns: ColumnMap) => {
    result.columns = columns;
    options.onColumns?.(columns);
  };
  for await (const rows of checkedRows({ ...options, onColumns })) {
    for (const row of rows) {
      if (options.stopRequested()) {
        result.stopped = true;
        return result;
      }
      result.total += 1;
      result.trimmed += row.trimmed ?? 0;
      if (row.problems === undefined) continue;
      result.bad += 1;
      const report = options.report;
      if (report === undefined) continue;
      const line = report.json
        ? `${JSON.stringify({ type: 'invalid-row', line: row.line, problems: row.problems })}\n`
        : badRowLine(row);
      if (!report.io.stdout.write(line)) await once(report.io.stdout, 'drain');
    }
  }
  return result;
}
