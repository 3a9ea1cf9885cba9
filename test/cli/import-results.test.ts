import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPeople } from '../../src/cli/import/people-file.js';
import { ResultsFile } from '../../src/cli/import/results-file.js';
import { runCli } from './cli-process.js';
import { IMPORT_TIMEOUT_MS, type ImportFake, newPartner, startImportFake } from './import-fake.js';
import { readWorkbook } from './read-workbook.js';

// Issue 49, "Results a spreadsheet opens", and issue 46, "Formula cells".
let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake();
});
afterAll(() => env.close());

const SHEET = [
  'Investor ID;First name;Last name;E-mail;Date of birth;Country;',
  'inv-1;Chloé;Dupont;chloe@example.fr;1980-12-31;FR;',
  'inv-2;Jürgen;Müller;not-an-email;1975-01-02;DE;',
  'inv-3;Ana;Silva;ana@example.pt;1990-05-06;PT;',
].join('\r\n');

describe('the results file', { timeout: IMPORT_TIMEOUT_MS }, () => {
  it('a CSV --out starts with a BOM, uses the input delimiter, and carries each input row with its outcome', async () => {
    const partner = await newPartner(env);
    const input = join(env.dir, `fr-${partner.clientId}.csv`);
    await writeFile(input, `${SHEET}\r\n`);
    const out = join(env.dir, `fr-${partner.clientId}-results.csv`);
    const { status } = await runCli(['import', 'investors', input, '--out', out, '--quiet'], {
      env: partner.env,
    });
    expect(status).toBe(3);
    const bytes = await readFile(out);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    const [header, ...lines] = text.trimEnd().split('\r\n');
    expect(header).toBe(
      'line;Investor ID;First name;Last name;E-mail;Date of birth;Country;status;servicePersonId;errorCode;errorField;errorMessage;retryable',
    );
    const rows = parse(text, { delimiter: ';', columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row['line'], row['First name'], row['Last name'], row['status']])).toEqual([
      ['2', 'Chloé', 'Dupont', 'created'],
      ['3', 'Jürgen', 'Müller', 'failed'],
      ['4', 'Ana', 'Silva', 'created'],
    ]);
    expect(rows[1]?.['errorField']).toBe('E-mail');
    expect(lines).toHaveLength(3);
    // The results file feeds --people, under the input's own header names.
    const people = await readPeople(out);
    expect([...people.keys()]).toEqual(['inv-1', 'inv-3']);
  });

  it('an .xlsx --out is a workbook: the same columns, read back', async () => {
    const partner = await newPartner(env);
    const input = join(env.dir, `wb-${partner.clientId}.csv`);
    await writeFile(input, `${SHEET}\r\n`);
    const out = join(env.dir, `wb-${partner.clientId}-results.xlsx`);
    const { status } = await runCli(['import', 'investors', input, '--out', out, '--quiet'], {
      env: partner.env,
    });
    expect(status).toBe(3);
    const [header, ...rows] = await readWorkbook(out);
    expect(header?.slice(0, 8)).toEqual([
      'line',
      'Investor ID',
      'First name',
      'Last name',
      'E-mail',
      'Date of birth',
      'Country',
      'status',
    ]);
    expect(rows.map((row) => [row[0], row[2], row[7]])).toEqual([
      ['2', 'Chloé', 'created'],
      ['3', 'Jürgen', 'failed'],
      ['4', 'Ana', 'created'],
    ]);
    expect(rows[0]?.[8]).toMatch(/^per_/);
  });

  it('neutralises what a spreadsheet runs as a formula, behind spaces, NBSP, ZWSP, a BOM, a line break or full width', async () => {
    const hostile = [
      ' =1+1',
      '\u00a0=1+1',
      '\u200b=1+1',
      '\ufeff=1+1',
      '\n=1+1',
      '\uff1d1+1',
      '\uff0b1',
      '  @SUM(A1)',
      '=1',
      '+1',
      '-1',
      '@A1',
      '\tx',
      '\rx',
    ];
    const path = join(env.dir, 'hostile.csv');
    const file = await ResultsFile.create(path, ['line', 'partnerInvestorId', 'servicePersonId']);
    await file.write(hostile.map((id, i) => [String(i + 2), `${id}#${i}`, `per_${i}`]));
    await file.close();
    const rows = parse(await readFile(path), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((row) => row['partnerInvestorId'])).toEqual(hostile.map((id, i) => `'${id}#${i}`));
    // --people reads each back as it was sent (trimmed, as every cell is).
    expect([...(await readPeople(path)).keys()]).toEqual(hostile.map((id, i) => `${id}#${i}`.trim()));
  });

  it('removes the temporary file a killed run left beside --out, and keeps a live run’s', async () => {
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.once('exit', () => resolve(child.pid ?? 0));
    });
    const path = join(env.dir, 'kept.csv');
    const left = `.kept.csv.${dead}-0123456789ab.tmp`;
    const live = `.kept.csv.${process.pid}-ba9876543210.tmp`;
    await writeFile(join(env.dir, left), 'half a run');
    await writeFile(join(env.dir, live), 'a run still going');
    const file = await ResultsFile.create(path, ['line']);
    await file.close();
    const names = await readdir(env.dir);
    expect(names).not.toContain(left);
    expect(names).toContain(live);
  });

  it('a re-run marks the rows its requests replayed as replayed, not created', async () => {
    const partner = await newPartner(env);
    const input = join(env.dir, `again-${partner.clientId}.csv`);
    await writeFile(input, `${SHEET}\r\n`);
    const out = join(env.dir, `again-${partner.clientId}-results.csv`);
    const run = () => runCli(['import', 'investors', input, '--out', out, '--quiet'], { env: partner.env });
    expect((await run()).status).toBe(3);
    expect((await run()).status).toBe(3);
    const rows = parse((await readFile(out, 'utf8')).slice(1), { delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((row) => row['status'])).toEqual(['replayed', 'failed', 'replayed']);
    expect(rows[0]?.['servicePersonId']).toMatch(/^per_/);
  });
});
