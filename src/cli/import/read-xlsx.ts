import { InvalidSpreadsheetError, readSheet, type SheetData, SheetNotFoundError } from 'read-excel-file/node';
import { ImportInputError } from './import-exit.js';
import type { CsvRecord } from './read-csv.js';

/** Rows handed on at a time (the workbook itself is read whole: a zip is not read as a stream). */
const BATCH = 1000;

/**
 * The rows of one sheet of an `.xlsx` workbook (the first, or `sheet` by name) as text cells, each with
 * its row number: numbers as the workbook stores them (`25000.5`, never rounded by a display format),
 * dates as `YYYY-MM-DD`, empty cells `''`.
 */
export async function* readXlsx(path: string, sheet: string | undefined): AsyncGenerator<CsvRecord[]> {
  let rows: SheetData<string>;
  try {
    rows = await readSheet<string>(path, sheet ?? 1, { parseNumber: (text) => text, trim: false });
  } catch (error) {
    if (error instanceof SheetNotFoundError) {
      const sheets = (error as { sheets?: string[] }).sheets ?? [];
      const list = sheets.length > 0 ? `; its sheets: ${sheets.map((name) => `'${name}'`).join(', ')}` : '';
      throw new ImportInputError(`--sheet '${sheet}': ${path} has no such sheet${list}`);
    }
    const why =
      error instanceof InvalidSpreadsheetError ? 'not a readable .xlsx workbook' : (error as Error).message;
    throw new ImportInputError(`cannot read ${path}: ${why}`);
  }
  let batch: CsvRecord[] = [];
  for (let index = 0; index < rows.length; index += 1) {
    const cells = (rows[index] ?? []).map(cellText);
    if (cells.every((cell) => cell === '')) continue;
    batch.push({ line: index + 1, cells });
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}
