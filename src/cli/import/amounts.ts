/** Which separator marks decimals: `25,000.00` (point) or `25.000,00` (comma). */
export type DecimalMark = 'point' | 'comma';

/** What an amount cell says: its number under each decimal mark, and the currency written with it. */
export interface AmountCell {
  /** The number as the API takes it (`25000.00`) if `.` marks decimals, or `undefined` if it cannot. */
  point: string | undefined;
  /** The same if `,` marks decimals. */
  comma: string | undefined;
  /** The currency symbol or code written in the cell (`€`, `$`, `EUR`), if any. */
  symbol?: string | undefined;
  /** The currency codes that symbol may stand for (`$`: USD, CAD, AUD…). */
  currencies?: readonly string[] | undefined;
}

const DOLLARS = ['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN'];
/** Currency symbols exports write, longest first, with the codes each may stand for. */
const SYMBOLS: readonly [string, readonly string[]][] = [
  ['SFr.', ['CHF']],
  ['US$', ['USD']],
  ['CA$', ['CAD']],
  ['AU$', ['AUD']],
  ['NZ$', ['NZD']],
  ['HK$', ['HKD']],
  ['Fr.', ['CHF']],
  ['C$', ['CAD']],
  ['A$', ['AUD']],
  ['S$', ['SGD']],
  ['R$', ['BRL']],
  ['zł', ['PLN']],
  ['kr', ['SEK', 'NOK', 'DKK', 'ISK']],
  ['€', ['EUR']],
  ['£', ['GBP']],
  ['$', DOLLARS],
  ['¥', ['JPY', 'CNY']],
  ['₹', ['INR']],
  ['₩', ['KRW']],
  ['₣', ['CHF']],
];

// Thousands groups (the first without a leading zero) split by one kind of separator, then the decimals.
const THOUSANDS = "[ \u00a0\u202f'’]";
const POINT = new RegExp(`^(?:[1-9]\\d{0,2}(?:([,]|${THOUSANDS})\\d{3}(?:\\1\\d{3})*)|\\d+)(?:\\.\\d+)?$`);
const COMMA = new RegExp(`^(?:[1-9]\\d{0,2}(?:([.]|${THOUSANDS})\\d{3}(?:\\1\\d{3})*)|\\d+)(?:,\\d+)?$`);
const GROUPING = /[., \u00a0\u202f'’]/g;

/** `text` as the API writes it if `mark` is the decimal mark: separators dropped, decimals after `.`. */
function under(text: string, mark: DecimalMark): string | undefined {
  if (!(mark === 'point' ? POINT : COMMA).test(text)) return undefined;
  const decimal = mark === 'point' ? '.' : ',';
  const at = text.lastIndexOf(decimal);
  const whole = (at < 0 ? text : text.slice(0, at)).replace(GROUPING, '');
  return at < 0 ? whole : `${whole}.${text.slice(at + 1)}`;
}

/** The symbol or three-letter code at the start (or the end) of `text`, with the codes it stands for. */
function currencyAt(text: string, end: boolean): [string, readonly string[]] | undefined {
  for (const [symbol, codes] of SYMBOLS) {
    const found = end ? text.endsWith(symbol) : text.startsWith(symbol);
    if (found) return [symbol, codes];
  }
  const code = (end ? /(?:^|[\s\d])([A-Za-z]{3})$/ : /^([A-Za-z]{3})(?=[\s\d]|$)/).exec(text)?.[1];
  return code === undefined ? undefined : [code, [code.toUpperCase()]];
}

/**
 * Reads an amount cell as written in a spreadsheet: `$25,000.00`, `25.000,00 €`, `25 000,00` (a no-break
 * space), `EUR 1'000.50`. `undefined` when it is not a number under either decimal mark (after a currency
 * symbol or code at either end is set aside).
 */
export function readAmount(value: string): AmountCell | undefined {
  let text = value.trim();
  let found: [string, readonly string[]] | undefined;
  const start = currencyAt(text, false);
  if (start !== undefined) {
    found = start;
    text = text.slice(start[0].length).trim();
  } else {
    const end = currencyAt(text, true);
    if (end !== undefined) {
      found = end;
      text = text.slice(0, text.length - end[0].length).trim();
    }
  }
  const point = under(text, 'point');
  const comma = under(text, 'comma');
  if (point === undefined && comma === undefined) return undefined;
  return { point, comma, symbol: found?.[0], currencies: found?.[1] };
}

/** The decimal mark a cell shows by itself (`25.000,00`, `25,5`), or `undefined` if either reads it the same. */
export function decimalMarkShown(cell: AmountCell): DecimalMark | undefined {
  if (cell.comma === undefined) return 'point';
  if (cell.point === undefined) return 'comma';
  return undefined;
}

/** Whether the cell reads differently by decimal mark (`1,000`: 1000 or 1.000). */
export function isAmbiguous(cell: AmountCell): boolean {
  return cell.point !== undefined && cell.comma !== undefined && Number(cell.point) !== Number(cell.comma);
}
