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
  /** Rows that pass with a warning (an empty optional cell, a repeated e-mail…). */
  warned: number;
  /** The pass ended early on request. */
  stopped: boolean;
  /** Cells whose surrounding spaces were trimmed. */
  trimmed: number;
  /** How the header was read (undefined for a file with no header line). */
  columns?: ColumnMap | undefined;
  /** The delimiter the text file was read with (given or detected; none for a workbook): the results CSV's. */
  delimiter?: string | undefined;
}

/** How the check pass reports bad rows: every one (`--check`), or none (before an import). */
export interface ScanOptions extends RowSource {
  report?: { io: ImportIo; json: boolean } | undefined;
  stopRequested(): boolean;
}

/** Distinct problems grouped before printing: past this, rows are printed as they come. */
const MAX_GROUPS = 10_000;
const LINES_SHOWN = 12;

interface Group {
  text: string;
  lines: number[];
  count: number;
}

/**
 * `--check`'s report: each problem once with the lines that have it (`lines 4, 9, … (×31): Country:
 * "Belgique" …`), errors then warnings, printed once the file is read; JSON lines per row with `--json`.
 */
class Report {
  readonly #io: ImportIo;
  readonly #json: boolean;
  readonly #groups = { error: new Map<string, Group>(), warning: new Map<string, Group>() };

  constructor(io: ImportIo, json: boolean) {
    this.#io = io;
    this.#json = json;
  }

  async row(row: CheckedRow): Promise<void> {
    if (this.#json) {
      const type = row.problems === undefined ? 'warning' : 'invalid-row';
      const problems = row.problems ?? row.warnings;
      await this.#write(`${JSON.stringify({ type, line: row.line, problems })}\n`);
      return;
    }
    for (const [kind, problems] of [
      ['error', row.problems],
      ['warning', row.warnings],
    ] as const) {
      for (const { column, reason } of problems ?? []) {
        const text = column === '' ? reason : `${column}: ${reason}`;
        const groups = this.#groups[kind];
        const group = groups.get(text);
        if (group !== undefined) {
          group.count += 1;
          if (group.lines.length < LINES_SHOWN) group.lines.push(row.line);
        } else if (groups.size < MAX_GROUPS) groups.set(text, { text, lines: [row.line], count: 1 });
        else await this.#write(`${kind === 'warning' ? 'warning: ' : ''}line ${row.line}: ${text}\n`);
      }
    }
  }

  async end(): Promise<void> {
    for (const kind of ['error', 'warning'] as const) {
      for (const { text, lines, count } of this.#groups[kind].values()) {
        const where =
          count === 1
            ? `line ${lines[0]}`
            : `lines ${lines.join(', ')}${count > lines.length ? ', …' : ''} (×${count.toLocaleString('en')})`;
        await this.#write(`${kind === 'warning' ? 'warning: ' : ''}${where}: ${text}\n`);
      }
    }
  }

  async #write(line: string): Promise<void> {
    if (!this.#io.stdout.write(line)) await once(this.#io.stdout, 'drain');
  }
}

/**
 * Pass 1: reads the whole file and checks every row locally (the SDK's schemas), sending nothing. Counts
 * the rows for progress, and proves the file readable to the end before an import sends its first chunk.
 */
export async function scanRows(options: ScanOptions): Promise<ScanResult> {
  const result: ScanResult = { total: 0, bad: 0, warned: 0, stopped: false, trimmed: 0 };
  const onColumns = (columns: ColumnMap) => {
    result.columns = columns;
    options.onColumns?.(columns);
  };
  const report =
    options.report === undefined ? undefined : new Report(options.report.io, options.report.json);
  const onDelimiter = (delimiter: string) => {
    result.delimiter = delimiter;
  };
  for await (const rows of checkedRows({ ...options, onColumns, onDelimiter })) {
    for (const row of rows) {
      if (options.stopRequested()) {
        result.stopped = true;
        return result;
      }
      result.total += 1;
      result.trimmed += row.trimmed ?? 0;
      if (row.problems !== undefined) result.bad += 1;
      else if (row.warnings !== undefined) result.warned += 1;
      else continue;
      await report?.row(row);
    }
  }
  await report?.end();
  return result;
}
