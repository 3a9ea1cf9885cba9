import { type ColumnMap, mapColumns, rowObject } from './columns.js';
import type { ImportKind, RowOutcome } from './import-kind.js';
import { readCsv } from './read-csv.js';

/** One problem of a row, as `--check` prints it. */
export interface RowProblem {
  /** The column at fault, as the header names it (`''` for the row as a whole). */
  column: string;
  reason: string;
}

/** One data row after the local check: what to send, or why not. */
export interface CheckedRow {
  /** Line of the file the row starts on. */
  line: number;
  /** The values of the kind's `echoFields`, for the results file. */
  echo: string[];
  /** The row as the SDK takes it, when it passed. */
  input?: Record<string, unknown>;
  problems?: RowProblem[];
}

/** Where the rows come from and how their columns are read. */
export interface RowSource {
  kind: ImportKind;
  file: string;
  delimiter: string | undefined;
  maps: readonly string[];
}

/**
 * Every data row of the file, in order, checked with the kind's schema — the SDK's own input check, so a
 * row passing here is one the SDK sends. Blank rows are skipped (they are not data). The header is mapped
 * first: a header that does not map throws before any row is read.
 */
export async function* checkedRows(source: RowSource): AsyncGenerator<CheckedRow> {
  let columns: ColumnMap | undefined;
  for await (const record of readCsv(source.file, source.delimiter)) {
    if (columns === undefined) {
      columns = mapColumns(record.cells, source.kind, source.maps);
      source.kind.checkColumns?.(columns);
      continue;
    }
    if (record.cells.every((cell) => cell.trim() === '')) continue;
    yield checkRow(source.kind, columns, record.line, record.cells);
  }
}

function checkRow(kind: ImportKind, columns: ColumnMap, line: number, cells: string[]): CheckedRow {
  const width = columns.header.length;
  // Cells past the header's last column are fine when empty (a trailing delimiter).
  if (cells.length < width || hasCellPast(cells, width)) {
    return {
      line,
      echo: kind.echoFields.map(() => ''),
      problems: [{ column: '', reason: `has ${cells.length} cells, the header has ${width}` }],
    };
  }
  const row = rowObject(cells, columns);
  const problems: RowProblem[] = [];
  const unresolved = kind.resolve?.(row);
  if (unresolved !== undefined)
    problems.push({ column: columns.columnOf(kind.extraFields[0] ?? ''), reason: unresolved });
  const echo = kind.echoFields.map((field) => valueAt(row, field));
  for (const field of kind.extraFields) delete row[field];
  const parsed = kind.schema.safeParse(row);
  if (parsed.success) {
    return problems.length === 0 ? { line, echo, input: parsed.data } : { line, echo, problems };
  }
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join('.');
    // The missing person id is already explained by the unresolved partnerInvestorId.
    if (unresolved !== undefined && kind.substitutes[field] !== undefined) continue;
    problems.push({ column: field === '' ? '' : columns.columnOf(field), reason: issue.message });
  }
  return { line, echo, problems };
}

function hasCellPast(cells: readonly string[], width: number): boolean {
  for (let index = width; index < cells.length; index += 1) if (cells[index] !== '') return true;
  return false;
}

function valueAt(row: Record<string, unknown>, field: string): string {
  const value = row[field];
  return typeof value === 'string' ? value : '';
}

/** The results file's outcome for a row refused by the local check: the SDK's `invalid_field` shape. */
export function invalidOutcome(problems: readonly RowProblem[]): RowOutcome {
  return {
    status: 'failed',
    error: {
      code: 'invalid_field',
      message: problems
        .map(({ column, reason }) => (column === '' ? reason : `${column}: ${reason}`))
        .join('; '),
      retryable: false,
      field: problems[0]?.column,
    },
  };
}
