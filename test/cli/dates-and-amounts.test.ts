import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedRow, checkedRows } from '../../src/cli/import/checked-rows.js';
import { investorsImport } from '../../src/cli/import/investors-import.js';
import { subscriptionsImport } from '../../src/cli/import/subscriptions-import.js';
import type { ValueFormats } from '../../src/cli/import/value-formats.js';

// Dates and amounts as French, German and US exports write them, with no flag: each column shows its
// format in some cell, and that format reads the column's ambiguous cells.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pe-dates-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function read(
  content: string,
  kind: 'investors' | 'subscriptions',
  formats?: ValueFormats,
): Promise<CheckedRow[]> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  await writeFile(file, content);
  const importKind = kind === 'investors' ? investorsImport() : subscriptionsImport('spv_1', undefined);
  const rows: CheckedRow[] = [];
  for await (const batch of checkedRows({
    kind: importKind,
    file,
    delimiter: undefined,
    maps: [],
    formats,
  })) {
    rows.push(...batch);
  }
  return rows;
}

const outcome = (row: CheckedRow | undefined, field: string) =>
  row?.problems?.map((problem) => problem.reason).join('; ') ??
  field.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], row?.input);

async function births(dates: string[], formats?: ValueFormats): Promise<unknown[]> {
  const lines = dates.map((date, i) => `i-${i};${date}`);
  const rows = await read(`Investor ID;Date of birth\n${lines.join('\n')}\n`, 'investors', formats);
  return rows.map((row) => outcome(row, 'dateOfBirth'));
}

async function amounts(
  cells: [currency: string, amount: string][],
  formats?: ValueFormats,
): Promise<unknown[]> {
  const lines = cells.map(([currency, amount]) => `p_1;class-a;${currency};"${amount}"`);
  const rows = await read(
    `Person ID;Share class;Currency;Amount\n${lines.join('\n')}\n`,
    'subscriptions',
    formats,
  );
  return rows.map((row) => outcome(row, 'lumpSum.value'));
}

describe('dates: the column shows its format', () => {
  it('a day over 12 anywhere in the column makes it day first, and its earlier dates are read so', async () => {
    expect(await births(['01/02/1980', '05/05/1975', '', '31/12/1980', '1990-03-04'])).toEqual([
      '1980-02-01',
      '1975-05-05',
      undefined,
      '1980-12-31',
      '1990-03-04',
    ]);
  });

  it('a US export: a day over 12 in the second place makes the column month first', async () => {
    expect(await births(['01/02/1980', '12/31/1980', '7/4/1976'])).toEqual([
      '1980-01-02',
      '1980-12-31',
      '1976-07-04',
    ]);
  });

  it('dots mean DD.MM.YYYY, whatever the numbers', async () => {
    expect(await births(['01.02.1980', '31.12.1980'])).toEqual(['1980-02-01', '1980-12-31']);
  });

  it('a column that never shows which comes first is refused, naming --date-format; --date-format reads it', async () => {
    const why =
      '"01/02/1980" could have the day or the month first, and no date in this column has a day over 12 to tell; add --date-format DD/MM/YYYY or --date-format MM/DD/YYYY';
    expect(await births(['01/02/1980', '03/04/1985', '01/02/1980'])).toEqual([
      why,
      why.replaceAll('01/02/1980', '03/04/1985'),
      why,
    ]);
    expect(await births(['01/02/1980'], { dateFormat: 'MM/DD/YYYY', decimalComma: false })).toEqual([
      '1980-01-02',
    ]);
  });

  it('looks for the format up to 100,000 rows when a cell needs it, 10,000 when none so far does', async () => {
    const iso = Array.from({ length: 15_000 }, () => '1980-01-02');
    const early = await births(['01/02/1980', ...iso, '31/12/1980']);
    expect(early[0]).toBe('1980-02-01');
    const late = await births([...iso, '01/02/1980', '31/12/1980']);
    expect(late[15_000]).toMatch(/^"01\/02\/1980" could have the day or the month first/);
    expect(late[15_001]).toBe('1980-12-31');
  });

  it('a date against its column, or one that is no date, says so with the value', async () => {
    expect(await births(['31/12/1980', '12/31/1980', '31/02/1980', '31/12/80'])).toEqual([
      '1980-12-31',
      '"12/31/1980" has the month first, but this column writes the day first ("31/12/1980", line 2); check it, or add --date-format',
      '"31/02/1980" (1980-02-31) is not a real date; check the day and month',
      '"31/12/80" is not a date; write it as YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY or DD.MM.YYYY',
    ]);
  });
});

describe('amounts: separators and currency as exported', () => {
  it.each([
    ['US', 'USD', ['$25,000.00', '$1,250,000', '$999.5', 'USD 10,000.00']],
    ['German', 'EUR', ['25.000,00 €', '250.000,00 €', '1.000.000 €', 'EUR 99,5']],
    ['French, a no-break space', 'EUR', ['25\u00a0000,00', '25\u202f000,00 €', '1 000 000', '99,50']],
    ['Swiss', 'CHF', ["CHF 25'000.00", "1'000'000.50 Fr.", '10000']],
  ])('%s', async (_name, currency, cells) => {
    const read = await amounts(cells.map((cell) => [currency, cell]));
    expect(
      read.every((value) => typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)),
      JSON.stringify(read),
    ).toBe(true);
    expect(read[0]).toBe('25000.00');
  });

  it('reads a column thousands-ambiguous cells by the decimal mark another cell shows', async () => {
    expect(
      await amounts([
        ['EUR', '1.000'],
        ['EUR', '2.500,50'],
      ]),
    ).toEqual(['1000', '2500.50']);
    expect(
      await amounts([
        ['USD', '1,000'],
        ['USD', '2,500.50'],
      ]),
    ).toEqual(['1000', '2500.50']);
  });

  it('a column that stays ambiguous is refused naming --decimal-comma; --decimal-comma reads it', async () => {
    expect(
      await amounts([
        ['EUR', '1.000'],
        ['EUR', '25000'],
      ]),
    ).toEqual([
      '"1.000" could be 1.000 or 1000, and no amount in this column shows which separator marks decimals; add --decimal-comma if the comma does, or write it without thousands separators',
      '25000',
    ]);
    expect(await amounts([['EUR', '1.000']], { decimalComma: true })).toEqual(['1000']);
  });

  it('a currency symbol or code that is not the row currency is refused, naming both (issue 49: 250.000,00 €)', async () => {
    expect(
      await amounts([
        ['USD', '250.000,00 €'],
        ['EUR', '$25,000.00'],
        ['eur', '250.000,00 €'],
        ['GBP', 'EUR 10'],
        ['CAD', '$10'],
      ]),
    ).toEqual([
      '"250.000,00 €" is written in €, which is not USD, the row\'s currency',
      '"$25,000.00" is written in $, which is not EUR, the row\'s currency',
      '250000.00',
      '"EUR 10" is written in EUR, which is not GBP, the row\'s currency',
      '10',
    ]);
  });

  it('what is not an amount says so, with the shapes that are', async () => {
    expect(
      await amounts([
        ['EUR', 'about 5k'],
        ['EUR', '-5'],
        ['EUR', '12,34,56'],
      ]),
    ).toEqual([
      '"about 5k" is not an amount; write it like 25000.00, 25,000.00 or 25.000,00',
      '"-5" is not an amount; write it like 25000.00, 25,000.00 or 25.000,00',
      '"12,34,56" is not an amount; write it like 25000.00, 25,000.00 or 25.000,00',
    ]);
  });
});
