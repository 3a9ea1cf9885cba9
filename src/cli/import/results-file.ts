import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { type FileHandle, lstat, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { redactText } from '../../core/logging/redact.js';
import { cliSecrets } from '../cli-secrets.js';
import { UsageError } from '../usage-error.js';
import type { CheckedRow } from './checked-rows.js';
import type { ColumnMap } from './columns.js';
import type { ImportKind, RowOutcome } from './import-kind.js';

// What a spreadsheet reads as a formula (OWASP "CSV injection"): `= + - @`, tab or CR first, their
// full-width forms, or `=`-like first characters behind spaces, NBSP, ZWSP, a BOM or a line break (which
// spreadsheets skip); and the `'` that marks a neutralised cell.
const FORMULA_START =
  /^(?:[=+\-@\t\r'\uFF1D\uFF0B\uFF0D\uFF20]|[\s\u200B\u2060]+[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, the delimiter, a line break or edge whitespace. A
 * cell a spreadsheet would run as a formula gets a leading `'`, as OWASP advises; so does one starting
 * with `'`, so {@link unneutralised} gives every value back exactly.
 */
function cell(value: string, delimiter: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  const quote = text.includes('"') || text.includes(delimiter) || /[\r\n]|^\s|\s$/.test(text);
  return quote ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell of a results file as it was before {@link cell} neutralised it (other cells unchanged). */
export function unneutralised(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** How the results file lays out a row: the input's own named columns, then the kind's ids and outcome. */
export interface ResultsLayout {
  /** Indexes of the input's columns that have a name (a trailing empty column is left out). */
  inputColumns: readonly number[];
  /** The kind's echo fields the input has no column for (a resolved `servicePersonId`). */
  echoIndexes: readonly number[];
  /** The header of the results file. */
  header: readonly string[];
}

/**
 * The results file's columns: `line`, the input's own columns as its header names them (so a row reads
 * as the sheet did), the ids the input lacks, then the outcome.
 */
export function resultsLayout(kind: ImportKind, columns: ColumnMap): ResultsLayout {
  const inputColumns = columns.header.flatMap((name, index) => (name === '' ? [] : [index]));
  // An id derived from another column (`--id-from email`) is one the input lacks: it is echoed.
  const echoIndexes = kind.echoFields.flatMap((field, index) =>
    columns.fields.includes(field) ? [] : [index],
  );
  return {
    inputColumns,
    echoIndexes,
    header: [
      'line',
      ...inputColumns.map((index) => columns.header[index] ?? ''),
      ...echoIndexes.map((index) => kind.echoFields[index] ?? ''),
      'status',
      kind.idColumn,
      'errorCode',
      'errorField',
      'errorMessage',
      'retryable',
    ],
  };
}

/** One results line: the input line and cells, its ids and its outcome (messages redacted once more). */
export function resultCells(layout: ResultsLayout, row: CheckedRow, outcome: RowOutcome): string[] {
  const error = outcome.error;
  return [
    String(row.line),
    ...layout.inputColumns.map((index) => row.cells[index] ?? ''),
    ...layout.echoIndexes.map((index) => row.echo[index] ?? ''),
    outcome.status,
    outcome.id ?? '',
    error?.code ?? '',
    error?.field ?? '',
    error === undefined ? '' : redactText(error.message, cliSecrets),
    error === undefined ? '' : String(error.retryable),
  ];
}

async function statOrUndefined(path: string, how: typeof stat | typeof lstat): Promise<Stats | undefined> {
  try {
    return await how(path);
  } catch {
    return undefined;
  }
}

/**
 * Refuses an `--out` that would destroy something: a symbolic link (never followed), or the input file or
 * the `--people` file under any name (hard links too). Runs before anything is read or sent.
 */
export async function checkOutPath(out: string, inputs: readonly (string | undefined)[]): Promise<void> {
  const link = await statOrUndefined(out, lstat);
  if (link === undefined) return;
  if (link.isSymbolicLink()) throw new UsageError(`--out ${out} is a symbolic link: name the file itself`);
  if (!link.isFile()) throw new UsageError(`--out ${out} exists and is not a regular file`);
  for (const input of inputs) {
    if (input === undefined) continue;
    const other = await statOrUndefined(input, stat);
    if (other !== undefined && other.dev === link.dev && other.ino === link.ino) {
      throw new UsageError(`--out ${out} is the input file ${input}: name another file for the results`);
    }
  }
}

/** How a results file is written: a CSV with the input's delimiter, or an `.xlsx` workbook. */
export interface ResultsFormat {
  /** The CSV delimiter (the input's). @default ',' */
  delimiter?: string;
}

/** An `.xlsx` name: the results are written as a workbook. */
export function isWorkbookPath(path: string): boolean {
  return extname(path).toLowerCase() === '.xlsx';
}

// `.<name>.<pid>-<12 hex>.tmp`: the temporary file of a run, by the process that writes it.
const TEMPORARY = /^\.(.+)\.(\d+)-[0-9a-f]{12}\.tmp$/;

/**
 * Removes the temporary results files a killed run left beside `path` (a run that is still going keeps
 * its own: its process is alive).
 */
async function removeLeftovers(path: string): Promise<void> {
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    const found = TEMPORARY.exec(name);
    if (found === null || found[1] !== basename(path) || isAlive(Number(found[2]))) continue;
    await rm(join(dirname(path), name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `--out`: written a chunk at a time as chunks finish, in input order, waiting when the disk lags. The lines
 * go to a new file beside `path` (mode 0600: it holds investor ids and server messages, created with
 * `O_EXCL`, so never through a link), renamed over `path` once closed: an existing file is replaced whole,
 * never truncated or written through. A CSV starts with a UTF-8 BOM (so Excel reads its accents) and uses
 * the input's delimiter; an `.xlsx` path gets a workbook, its rows held until the end (every cell text).
 */
export class ResultsFile {
  readonly #file: FileHandle;
  readonly #temporary: string;
  readonly #path: string;
  readonly #delimiter: string;
  readonly #workbook: string[][] | undefined;

  private constructor(file: FileHandle, temporary: string, path: string, delimiter: string) {
    this.#file = file;
    this.#temporary = temporary;
    this.#path = path;
    this.#delimiter = delimiter;
    this.#workbook = isWorkbookPath(path) ? [] : undefined;
  }

  static async create(
    path: string,
    columns: readonly string[],
    format: ResultsFormat = {},
  ): Promise<ResultsFile> {
    await removeLeftovers(path);
    const name = `.${basename(path)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    const temporary = join(dirname(path), name);
    // `wx`: O_CREAT | O_EXCL, which never opens through a link or an existing file.
    const handle = await open(temporary, 'wx', 0o600);
    const file = new ResultsFile(handle, temporary, path, format.delimiter ?? ',');
    if (file.#workbook === undefined) await handle.write('\uFEFF');
    await file.write([columns]);
    return file;
  }

  async write(lines: readonly (readonly string[])[]): Promise<void> {
    if (this.#workbook !== undefined) {
      for (const line of lines) this.#workbook.push([...line]);
      return;
    }
    const delimiter = this.#delimiter;
    await this.#file.write(
      lines.map((line) => `${line.map((value) => cell(value, delimiter)).join(delimiter)}\r\n`).join(''),
    );
  }

  /** Closes the file and puts it at its path (also after an interrupted or failed run: the rows so far). */
  async close(): Promise<void> {
    try {
      if (this.#workbook !== undefined) await this.#file.write(await workbookBytes(this.#workbook));
      await this.#file.close();
      await rename(this.#temporary, this.#path);
    } catch (error) {
      await this.#file.close().catch(() => {});
      await rm(this.#temporary, { force: true });
      throw error;
    }
  }
}

/** The rows as an `.xlsx` workbook of one sheet, every cell a text cell (never a formula). */
async function workbookBytes(rows: readonly string[][]): Promise<Buffer> {
  // Loaded only when a workbook is written.
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const data = rows.map((row, index) =>
    row.map((value) => ({ value, type: String, ...(index === 0 ? { fontWeight: 'bold' as const } : {}) })),
  );
  return writeXlsxFile(data, { sheet: 'Results', stickyRowsCount: 1 }).toBuffer();
}
