import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedRow, checkedRows } from '../../src/cli/import/checked-rows.js';
import type { ImportJob } from '../../src/cli/import/import-request.js';
import { importLimits } from '../../src/cli/import/import-thread.js';
import { investorsImport } from '../../src/cli/import/investors-import.js';
import { MAX_WORKBOOK_BYTES, type ReadOptions } from '../../src/cli/import/read-records.js';
import { runCli } from './cli-process.js';
import { IMPORT_TIMEOUT_MS } from './import-fake.js';
import { xlsxBytes } from './xlsx-bytes.js';

// Files as spreadsheet programs export them, made here byte for byte, read through the import's own row
// pipeline with no --map: the rows it reads and the messages the operations person sees.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pe-exports-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let files = 0;
async function saved(name: string, bytes: Buffer | string): Promise<string> {
  files += 1;
  const path = join(dir, `${files}-${name}`);
  await writeFile(path, bytes);
  return path;
}

async function read(path: string, options: ReadOptions = {}): Promise<CheckedRow[]> {
  const rows: CheckedRow[] = [];
  for await (const batch of checkedRows({
    kind: investorsImport(),
    file: path,
    delimiter: options.delimiter,
    encoding: options.encoding,
    sheet: options.sheet,
    maps: [],
  })) {
    rows.push(...batch);
  }
  return rows;
}

const people = (rows: CheckedRow[]) => rows.map((row) => [row.line, row.input ?? row.problems]);
const HEADER = ['Investor ID', 'First name', 'Last name', 'E-mail', 'Country'];
const ROWS = [
  ['fr-1', 'François', 'Lefèvre', 'francois@example.fr', 'FR'],
  ['de-1', 'Jürgen', 'Müller', 'jurgen@example.de', 'DE'],
];
const READ: [number, Record<string, string>][] = [
  [
    2,
    {
      partnerInvestorId: 'fr-1',
      firstName: 'François',
      lastName: 'Lefèvre',
      email: 'francois@example.fr',
      countryOfResidence: 'FR',
    },
  ],
  [
    3,
    {
      partnerInvestorId: 'de-1',
      firstName: 'Jürgen',
      lastName: 'Müller',
      email: 'jurgen@example.de',
      countryOfResidence: 'DE',
    },
  ],
];
const text = (separator: string) => `${[HEADER, ...ROWS].map((row) => row.join(separator)).join('\r\n')}\r\n`;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** UTF-16 big-endian bytes of `text` (Node writes only little-endian). */
function utf16be(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf16le');
  for (let i = 0; i < bytes.length; i += 2) bytes.writeUInt16BE(bytes.readUInt16LE(i), i);
  return bytes;
}

describe('text files as exported, read with no flag', () => {
  it.each([
    ['UTF-8, comma separated', Buffer.from(text(','))],
    [
      'UTF-8 with a BOM, semicolon separated (Excel "CSV UTF-8", French locale)',
      Buffer.concat([BOM, Buffer.from(text(';'))]),
    ],
    ['UTF-8, TAB separated', Buffer.from(text('\t'))],
    [
      'UTF-16 LE with a BOM, TAB separated (Excel "Unicode Text")',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text('\t'), 'utf16le')]),
    ],
    ['UTF-16 BE with a BOM, TAB separated', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text('\t'))])],
  ])('%s', async (_name, bytes) => {
    expect(people(await read(await saved('export.txt', bytes)))).toEqual(READ);
  });

  it('Windows-1252 (Excel "CSV" on Windows) reads with --encoding windows-1252; without it the message names that flag', async () => {
    const path = await saved('windows.csv', Buffer.from(text(';'), 'latin1'));
    expect(people(await read(path, { encoding: 'windows-1252' }))).toEqual(READ);
    await expect(read(path)).rejects.toThrow(
      `${path}: line 2: a cell holds bytes that are not UTF-8 ("Fran\uFFFDois"): if Excel saved it as "CSV" on Windows, add --encoding windows-1252 (or save it as "CSV UTF-8")`,
    );
  });

  it('a file that reads as one column gets a hint naming --delimiter with its likeliest separator', async () => {
    const path = await saved('pipes.csv', `${HEADER.join('|')}\n${ROWS[0]?.join('|')}\n`);
    await expect(read(path)).rejects.toThrow(
      /The file reads as one column: if another character splits its values, name it with --delimiter '\|'$/,
    );
    expect(people(await read(path, { delimiter: '|' }))).toEqual(READ.slice(0, 1));
  });
});

describe('.xlsx workbooks', () => {
  const workbook = xlsxBytes([
    {
      name: 'Investors',
      rows: [
        [...HEADER, 'Date of birth'],
        [...(ROWS[0] ?? []), { date: '1980-12-31' }],
        [],
        [...(ROWS[1] ?? []), null],
      ],
    },
    { name: 'Late joiners', rows: [HEADER, ['nl-1', 'Saskia', 'de Vries', 'saskia@example.nl', 'NL']] },
  ]);

  it('reads the first sheet: rows numbered as the workbook shows them, dates as dates, empty cells empty', async () => {
    const rows = await read(await saved('book.xlsx', workbook));
    expect(people(rows)).toEqual([
      [2, { ...READ[0]?.[1], dateOfBirth: '1980-12-31' }],
      [4, READ[1]?.[1]],
    ]);
  });

  it('reads another sheet with --sheet, and names the sheets there are when one is not', async () => {
    const path = await saved('book.xlsx', workbook);
    expect(people(await read(path, { sheet: 'Late joiners' }))).toEqual([
      [
        2,
        {
          partnerInvestorId: 'nl-1',
          firstName: 'Saskia',
          lastName: 'de Vries',
          email: 'saskia@example.nl',
          countryOfResidence: 'NL',
        },
      ],
    ]);
    await expect(read(path, { sheet: 'Sheet1' })).rejects.toThrow(
      `--sheet 'Sheet1': ${path} has no such sheet; its sheets: 'Investors', 'Late joiners'`,
    );
  });

  it('is told by its bytes, not its name: a workbook saved as .csv is read as a workbook', async () => {
    expect(people(await read(await saved('named-wrong.csv', workbook)))).toHaveLength(2);
  });

  it("sizes the import's heap from a workbook (read whole), and refuses one over 32 MiB before reading it", async () => {
    const bytes = Buffer.concat([workbook, Buffer.alloc(4 * 1024 * 1024)]);
    const book = await saved('padded.xlsx', bytes);
    const text = await saved('same-size.csv', Buffer.alloc(bytes.length, 0x41));
    const limits = async (file: string) =>
      (await importLimits({ chunkSize: 500, concurrency: 4, file } as ImportJob)).maxOldGenerationSizeMb ?? 0;
    const grown = (await limits(book)) - (await limits(text));
    const mb = (bytes.length * 64) / (1024 * 1024);
    expect(grown).toBeGreaterThanOrEqual(Math.floor(mb));
    expect(grown).toBeLessThanOrEqual(Math.ceil(mb));
    const huge = await saved('huge.xlsx', Buffer.concat([workbook, Buffer.alloc(MAX_WORKBOOK_BYTES)]));
    await expect(read(huge)).rejects.toThrow(
      `${huge}: the workbook is over 32 MiB (a workbook is read whole); save it as "CSV UTF-8" and import that`,
    );
  });

  it('an Excel 97-2003 .xls is refused with what to save it as', async () => {
    const path = await saved('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]));
    await expect(read(path)).rejects.toThrow(/is an Excel 97-2003 workbook \(\.xls\): save it as \.xlsx/);
  });
});

// Three commands, each its own Node process: as long as the CLI import tests allow on a busy machine.
describe('partner-equity import investors --check on exports', { timeout: IMPORT_TIMEOUT_MS }, () => {
  it('takes an .xlsx with --sheet and Windows-1252 with --encoding, and refuses a bad --encoding', async () => {
    const book = await saved(
      'cli.xlsx',
      xlsxBytes([
        { name: 'Readme', rows: [['Nothing here']] },
        { name: 'Investors', rows: [HEADER, ...ROWS] },
      ]),
    );
    const sheet = await runCli(['import', 'investors', book, '--sheet', 'Investors', '--check']);
    expect(sheet.stderr).toContain(`${book}: 2 rows, every row passes; nothing was sent`);
    expect(sheet.status).toBe(0);
    const windows = await saved('cli.csv', Buffer.from(text(';'), 'latin1'));
    const latin = await runCli(['import', 'investors', windows, '--encoding', 'windows-1252', '--check']);
    expect(latin.stderr).toContain(`${windows}: 2 rows, every row passes; nothing was sent`);
    expect(latin.status).toBe(0);
    const bad = await runCli(['import', 'investors', windows, '--encoding', 'ebcdic', '--check']);
    expect(bad.stderr).toMatch(/--encoding 'ebcdic': expected utf-8, utf-16le, utf-16be or windows-1252/);
    expect(bad.status).toBe(2);
  });
});
