import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { type FileHandle, lstat, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { redactText } from '../../core/logging/redact.js';
import { cliSecrets } from '../cli-secrets.js';
import { UsageError } from '../usage-error.js';
import type { CheckedRow } from './checked-rows.js';
import type { ImportKind, RowOutcome } from './import-kind.js';

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
// What a spreadsheet reads as a formula (OWASP "CSV injection"), and the `'` that marks a neutralised cell.
const FORMULA_START = /^[=+\-@\t\r']/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma, line break or edge whitespace. A cell a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`, as OWASP
 * advises; so does one starting with `'`, so {@link unneutralised} gives every value back exactly.
 */
function cell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell of a results file as it was before {@link cell} neutralised it (other cells unchanged). */
export function unneutralised(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** The results file's columns for a kind: the input line, the row's ids, then its outcome. */
export function resultColumns(kind: ImportKind): string[] {
  return [
    'line',
    ...kind.echoFields,
    'status',
    kind.idColumn,
    'errorCode',
    'errorField',
    'errorMessage',
    'retryable',
  ];
}

/** One results line: which input line, its ids and its outcome (messages redacted once more). */
export function resultCells(row: CheckedRow, outcome: RowOutcome): string[] {
  const error = outcome.error;
  return [
    String(row.line),
    ...row.echo,
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

/**
 * `--out`: written a chunk at a time as chunks finish, in input order, waiting when the disk lags. The lines
 * go to a new file beside `path` (mode 0600: it holds investor ids and server messages, created with
 * `O_EXCL`, so never through a link), renamed over `path` once closed: an existing file is replaced whole,
 * never truncated or written through.
 */
export class ResultsFile {
  readonly #file: FileHandle;
  readonly #temporary: string;
  readonly #path: string;

  private constructor(file: FileHandle, temporary: string, path: string) {
    this.#file = file;
    this.#temporary = temporary;
    this.#path = path;
  }

  static async create(path: string, columns: readonly string[]): Promise<ResultsFile> {
    const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
    // `wx`: O_CREAT | O_EXCL, which never opens through a link or an existing file.
    const file = new ResultsFile(await open(temporary, 'wx', 0o600), temporary, path);
    await file.write([columns]);
    return file;
  }

  async write(lines: readonly (readonly string[])[]): Promise<void> {
    await this.#file.write(lines.map((line) => `${line.map(cell).join(',')}\r\n`).join(''));
  }

  /** Closes the file and puts it at its path (also after an interrupted or failed run: the rows so far). */
  async close(): Promise<void> {
    await this.#file.close();
    try {
      await rename(this.#temporary, this.#path);
    } catch (error) {
      await rm(this.#temporary, { force: true });
      throw error;
    }
  }
}
