import { type DecimalMark, decimalMarkShown, isAmbiguous, readAmount } from './amounts.js';
import type { RowSource } from './checked-rows.js';
import type { ColumnMap } from './columns.js';
import { loadCountryLookup } from './country-names.js';
import { dateReadings } from './dates.js';
import { readRecords } from './read-records.js';
import type { ColumnFormats, ConvertContext, ValueKind } from './value-formats.js';
import { VALUE_KINDS } from './value-formats.js';

/**
 * Rows read at most to find what a column shows of its format: a spreadsheet's date and amount columns
 * show it in their first rows, and a file of millions is not read twice over for a column that never does
 * (its ambiguous cells are then refused, naming the flag).
 */
export const SNIFF_ROWS = 100_000;
/** Rows read at most when no cell so far needs the column's format (ISO dates, whole amounts). */
export const SNIFF_ROWS_UNNEEDED = 10_000;

/** What a conversion of this file's cells uses: the flags, the columns' formats, the lookups it needs. */
export async function convertContext(source: RowSource, columns: ColumnMap): Promise<ConvertContext> {
  const column = (kind: ValueKind) =>
    columns.fields.findIndex((field) => field !== undefined && VALUE_KINDS[field] === kind);
  const dateFormat = source.formats?.dateFormat;
  const decimalComma = source.formats?.decimalComma ?? false;
  const formats = await sniffColumnFormats(
    source,
    dateFormat === undefined ? column('date') : -1,
    decimalComma ? -1 : column('amount'),
  );
  return {
    dateFormat,
    decimalComma,
    ...formats,
    countryCode: column('country') >= 0 ? await loadCountryLookup() : undefined,
    shareClasses: source.shareClasses,
  };
}

/**
 * Reads the date column (index `dateAt`, -1 for none) and the amount column (`amountAt`) from the top
 * until each has shown its format in a cell that reads only one way: a slashed date with a day over 12
 * (`31/12/1980` is day first, `12/31/1980` month first), an amount with both separators, a thousands
 * group or decimals that are not three digits (`25.000,00`, `25,5`, `1,000.50`). Stops there, or after
 * {@link SNIFF_ROWS} rows ({@link SNIFF_ROWS_UNNEEDED} while no cell read so far could be read two ways).
 */
async function sniffColumnFormats(
  source: RowSource,
  dateAt: number,
  amountAt: number,
): Promise<ColumnFormats> {
  const found: ColumnFormats = {};
  let need = (dateAt >= 0 ? 1 : 0) + (amountAt >= 0 ? 1 : 0);
  if (need === 0) return found;
  let rows = 0;
  let header = true;
  // A cell that reads two ways was seen in a column still without its format: it is worth reading on.
  let needed = false;
  for await (const records of readRecords(source.file, source)) {
    for (const { line, cells } of records) {
      if (header) {
        header = false;
        continue;
      }
      const date = cells[dateAt]?.trim() ?? '';
      if (found.dateOrder === undefined && date !== '') {
        const formats = Object.keys(dateReadings(date));
        const [only] = formats;
        if (formats.length === 1 && (only === 'DD/MM/YYYY' || only === 'MM/DD/YYYY')) {
          found.dateOrder = { value: only, example: date, line };
          need -= 1;
        } else if (formats.length > 1) needed = true;
      }
      const amount = cells[amountAt]?.trim() ?? '';
      if (found.decimalMark === undefined && amount !== '') {
        const cell = readAmount(amount);
        const mark: DecimalMark | undefined = cell === undefined ? undefined : decimalMarkShown(cell);
        if (mark !== undefined) {
          found.decimalMark = { value: mark, example: amount, line };
          need -= 1;
        } else if (cell !== undefined && isAmbiguous(cell)) needed = true;
      }
      rows += 1;
      if (need === 0 || rows >= (needed ? SNIFF_ROWS : SNIFF_ROWS_UNNEEDED)) return found;
    }
  }
  return found;
}
