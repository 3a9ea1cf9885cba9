import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedRow, checkedRows } from '../../src/cli/import/checked-rows.js';
import { ImportInputError } from '../../src/cli/import/import-exit.js';
import { investorsImport } from '../../src/cli/import/investors-import.js';
import { subscriptionsImport } from '../../src/cli/import/subscriptions-import.js';
import type { ValueFormats } from '../../src/cli/import/value-formats.js';

// What `--check` says about a file, read through the import's own row pipeline (the CLI process tests
// in spreadsheet-journey.test.ts show the same end to end).
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pe-values-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function check(
  content: string,
  options: {
    kind?: 'investors' | 'subscriptions';
    formats?: ValueFormats;
    shareClasses?: { slug: string; name: string }[];
  } = {},
): Promise<CheckedRow[]> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  await writeFile(file, content);
  const kind = options.kind === 'subscriptions' ? subscriptionsImport('spv_1', undefined) : investorsImport();
  const rows: CheckedRow[] = [];
  for await (const batch of checkedRows({
    kind,
    file,
    delimiter: undefined,
    maps: [],
    formats: options.formats,
    shareClasses: options.shareClasses,
  })) {
    rows.push(...batch);
  }
  return rows;
}

const reasons = (rows: CheckedRow[]) =>
  rows.map((row) => row.problems?.map((p) => `${p.column}: ${p.reason}`));

describe('headers as people write them', () => {
  it.each([
    ['Investor ID;E-mail;Given name;Surname;DOB;Country of residence'],
    ['investor id;EMAIL ADDRESS;first_name;Family name;Birth date;country'],
    ['partnerInvestorId;email;First Name;LAST-NAME;date of birth;Country'],
  ])('matches %s without --map', async (header) => {
    const rows = await check(`${header}\ninv-1;a@example.com;Ada;Lovelace;1980-01-02;DE\n`);
    expect(rows[0]?.input).toEqual({
      partnerInvestorId: 'inv-1',
      email: 'a@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1980-01-02',
      countryOfResidence: 'DE',
    });
  });

  it('names the closest fields for a header that matches nothing, and for two columns holding one field', async () => {
    await expect(check('Investor ID;E-mial;Notes\ni-1;a@example.com;x\n')).rejects.toThrow(
      /column 'E-mial' matches no investors field \(closest: email; read it with --map 'E-mial=<field>'/,
    );
    await expect(
      check('Investor ID;E-mail;Email address\ni-1;a@example.com;b@example.com\n'),
    ).rejects.toThrow(ImportInputError);
    await expect(
      check('Investor ID;E-mail;Email address\ni-1;a@example.com;b@example.com\n'),
    ).rejects.toThrow(/columns 'E-mail' and 'Email address' both hold email: .*--map 'Email address='/);
  });

  it('reads subscription headers in plain words: share class, currency, amount, lump sum, your reference, person ID', async () => {
    const rows = await check(
      'Person ID;Share class;Currency;Lump sum;Your reference\np_1;class-a;EUR;1000.50;sub-1\n',
      {
        kind: 'subscriptions',
      },
    );
    expect(rows[0]?.input).toEqual({
      servicePersonId: 'p_1',
      shareClassSlug: 'class-a',
      lumpSum: { currency: 'EUR', value: '1000.50' },
      partnerSubscriptionId: 'sub-1',
    });
  });
});

describe('values as people write them, said out loud', () => {
  const header = 'Investor ID;E-mail;Date of birth;Country\n';

  it('reads dates as their column shows them, --date-format forces one, and every message quotes the value', async () => {
    const file = `${header}i-1;a@example.com;01/02/1980;DE\ni-2;a@example.com;29/02/1980;DE\ni-3;a@example.com;02/13/1980;DE\ni-4;a@example.com;31.12.1980;DE\ni-5;a@example.com;sometime;DE\n`;
    const rows = await check(file);
    expect(rows[0]?.input?.['dateOfBirth']).toBe('1980-02-01');
    expect(rows[3]?.input?.['dateOfBirth']).toBe('1980-12-31');
    expect(reasons(rows)).toEqual([
      undefined,
      undefined,
      [
        'Date of birth: "02/13/1980" has the month first, but this column writes the day first ("29/02/1980", line 3); check it, or add --date-format',
      ],
      undefined,
      [
        'Date of birth: "sometime" is not a date; write it as YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY or DD.MM.YYYY',
      ],
    ]);
    const dayFirst = await check(
      `${header}i-1;a@example.com;29/02/1980;DE\ni-2;a@example.com;29/02/1981;DE\ni-3;a@example.com;1980-02-01;DE\n`,
      {
        formats: { dateFormat: 'DD/MM/YYYY', decimalComma: false },
      },
    );
    expect(dayFirst[0]?.input?.['dateOfBirth']).toBe('1980-02-29');
    expect(reasons(dayFirst).slice(1)).toEqual([
      ['Date of birth: "29/02/1981" (1981-02-29) is not a real date; check the day and month'],
      ['Date of birth: "1980-02-01" is not DD/MM/YYYY (--date-format); write it as DD/MM/YYYY'],
    ]);
  });

  it('makes English country names (any case) ISO codes, and names an unknown one', async () => {
    const rows = await check(
      `${header}i-1;a@example.com;;United Kingdom\ni-2;a@example.com;;UNITED STATES\ni-3;a@example.com;;de\ni-4;a@example.com;;Narnia\n`,
    );
    expect(rows.slice(0, 3).map((row) => row.input?.['countryOfResidence'])).toEqual(['GB', 'US', 'DE']);
    expect(reasons(rows)[3]).toEqual([
      'Country: country "Narnia" not recognised (names in English, French, German, Spanish, Italian or Dutch, or ISO codes); write its two-letter ISO code (DE)',
    ]);
  });

  it('trims every value the same way in every column, counts the trims, and quotes an e-mail that stays bad', async () => {
    const rows = await check(`${header} i-1 ; a@example.com\u00a0;1980-01-02 ;DE\ni-2;a b@example.com;;DE\n`);
    expect(rows[0]).toMatchObject({
      input: { partnerInvestorId: 'i-1', email: 'a@example.com', dateOfBirth: '1980-01-02' },
      trimmed: 3,
    });
    expect(reasons(rows)[1]).toEqual([
      'E-mail: "a b@example.com" is not an e-mail address; write it as name@domain, with no spaces inside',
    ]);
  });

  it('reads amounts as their column shows them; --decimal-comma forces the comma', async () => {
    const file =
      'Person ID;Share class;Currency;Amount\np_1;class-a;EUR;25.000,00\np_2;class-a;EUR;25 000,00\np_3;class-a;EUR;25,000.00\n';
    const rows = await check(file, { kind: 'subscriptions' });
    expect(rows.slice(0, 2).map((row) => row.input?.['lumpSum'])).toEqual([
      { currency: 'EUR', value: '25000.00' },
      { currency: 'EUR', value: '25000.00' },
    ]);
    expect(reasons(rows)[2]).toEqual([
      'Amount: "25,000.00" has a decimal point, but this column\'s amounts have a decimal comma ("25.000,00", line 2); check it',
    ]);
    const comma = await check(file, {
      kind: 'subscriptions',
      formats: { decimalComma: true },
    });
    expect(comma.slice(0, 2).map((row) => row.input?.['lumpSum'])).toEqual([
      { currency: 'EUR', value: '25000.00' },
      { currency: 'EUR', value: '25000.00' },
    ]);
    expect(reasons(comma)[2]).toEqual([
      'Amount: "25,000.00" is not an amount like 25.000,00 or 25 000,00 (--decimal-comma); write it so, or drop --decimal-comma',
    ]);
  });

  it('resolves a share class given by name when the SPV is known, and lists the valid ones when it is not one', async () => {
    const shareClasses = [
      { slug: 'class-a', name: 'Class A' },
      { slug: 'class-b', name: 'Class B' },
    ];
    const rows = await check(
      'Person ID;Share class;Currency;Amount\np_1;Class A;EUR;1\np_2;class b;EUR;1\np_3;Class Z;EUR;1\n',
      {
        kind: 'subscriptions',
        shareClasses,
      },
    );
    expect(rows.slice(0, 2).map((row) => row.input?.['shareClassSlug'])).toEqual(['class-a', 'class-b']);
    expect(reasons(rows)[2]).toEqual([
      'Share class: "Class Z" is not a share class of this SPV; use one of class-a ("Class A"), class-b ("Class B")',
    ]);
  });
});
