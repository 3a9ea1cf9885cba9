import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { redactText } from '../../core/logging/redact.js';
import { cliSecrets } from '../cli-secrets.js';
import type { CheckedRow } from './checked-rows.js';
import type { ImportKind, RowOutcome } from './import-kind.js';

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One CSV cell (RFC 4180): quoted when it holds a quote, comma, line break or edge whitespace. */
function cell(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
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

/** `--out`: written a chunk at a time as chunks finish, in input order, waiting when the disk lags. */
export class ResultsFile {
  readonly #stream: WriteStream;

  private constructor(stream: WriteStream) {
    this.#stream = stream;
  }

  static async create(path: string, columns: readonly string[]): Promise<ResultsFile> {
    const stream = createWriteStream(path);
    await once(stream, 'open');
    const file = new ResultsFile(stream);
    await file.write([columns]);
    return file;
  }

  async write(lines: readonly (readonly string[])[]): Promise<void> {
    const text = lines.map((line) => `${line.map(cell).join(',')}\r\n`).join('');
    if (!this.#stream.write(text)) await once(this.#stream, 'drain');
  }

  async close(): Promise<void> {
    this.#stream.end();
    await once(this.#stream, 'close');
  }
}
