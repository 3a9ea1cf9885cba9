import { stat } from 'node:fs/promises';
import { ImportInputError } from './import-exit.js';
import { type CsvRecord, readCsv } from './read-csv.js';
import { fileHead, fileShape, type TextEncoding } from './text-encoding.js';

/** How a file is read: `--delimiter`, `--encoding` and `--sheet` (each `undefined` when not given). */
export interface ReadOptions {
  delimiter?: string | undefined;
  encoding?: TextEncoding | undefined;
  sheet?: string | undefined;
  /** Called with the delimiter a text file is read with (given or detected): the results CSV uses it. */
  onDelimiter?: ((delimiter: string) => void) | undefined;
}

/**
 * Largest `.xlsx` read (32 MiB, about a million rows): a workbook is a zip, read whole, so the import's
 * heap is sized from it ({@link workbookBytes}); a larger one is refused, to be saved as CSV.
 */
export const MAX_WORKBOOK_BYTES = 32 * 1024 * 1024;

/**
 * Heap a workbook takes while read, per byte of the file: its XML unzipped and parsed, and its rows (a
 * 1.6 MB workbook of 50,000 rows peaked at 70 MB of heap).
 */
export const WORKBOOK_HEAP_PER_BYTE = 64;

/** The size of `path` if it is an `.xlsx` workbook (up to {@link MAX_WORKBOOK_BYTES}), else 0. */
export async function workbookBytes(path: string): Promise<number> {
  try {
    if (fileShape(await fileHead(path), undefined).kind !== 'xlsx') return 0;
    return Math.min((await stat(path)).size, MAX_WORKBOOK_BYTES);
  } catch {
    return 0; // the import itself reports the unreadable file
  }
}

/**
 * Every record of the file, the header first, each with the line (or the workbook's row) it starts on: a
 * workbook (`.xlsx`, told by its bytes, not its name) through read-excel-file, loaded only then; any
 * other file as delimited text ({@link readCsv}).
 */
export async function* readRecords(path: string, options: ReadOptions): AsyncGenerator<CsvRecord[]> {
  let head: Uint8Array;
  try {
    head = await fileHead(path);
  } catch (error) {
    throw new ImportInputError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const shape = fileShape(head, options.encoding);
  if (shape.kind === 'xls') {
    throw new ImportInputError(
      `${path} is an Excel 97-2003 workbook (.xls): save it as .xlsx ("Excel Workbook") or as "CSV UTF-8"`,
    );
  }
  if (shape.kind === 'xlsx') {
    const size = await stat(path).then(({ size }) => size);
    if (size > MAX_WORKBOOK_BYTES) {
      throw new ImportInputError(
        `${path}: the workbook is over ${MAX_WORKBOOK_BYTES / (1024 * 1024)} MiB (a workbook is read whole); save it as "CSV UTF-8" and import that`,
      );
    }
    const { readXlsx } = await import('./read-xlsx.js');
    yield* readXlsx(path, options.sheet);
    return;
  }
  if (options.sheet !== undefined) {
    throw new ImportInputError(`--sheet '${options.sheet}': ${path} is a text file, not an .xlsx workbook`);
  }
  yield* readCsv(path, options.delimiter, options.encoding, options.onDelimiter);
}
