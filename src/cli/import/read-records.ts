import { ImportInputError } from './import-exit.js';
import { type CsvRecord, readCsv } from './read-csv.js';
import { fileHead, fileShape, type TextEncoding } from './text-encoding.js';

/** How a file is read: `--delimiter`, `--encoding` and `--sheet` (each `undefined` when not given). */
export interface ReadOptions {
  delimiter?: string | undefined;
  encoding?: TextEncoding | undefined;
  sheet?: string | undefined;
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
    const { readXlsx } = await import('./read-xlsx.js');
    yield* readXlsx(path, options.sheet);
    return;
  }
  if (options.sheet !== undefined) {
    throw new ImportInputError(`--sheet '${options.sheet}': ${path} is a text file, not an .xlsx workbook`);
  }
  yield* readCsv(path, options.delimiter, options.encoding);
}
