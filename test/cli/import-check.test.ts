import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';
import {
  IMPORT_TIMEOUT_MS,
  type ImportFake,
  newPartner,
  readCsvFile,
  startImportFake,
} from './import-fake.js';

// Issue 49, "What --check passed": a Google Sheets export (trailing empty columns, an empty row, a total
// row, people entered twice, a few bad rows), checked by file line.
let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake();
});
afterAll(() => env.close());

const SHEET = [
  'Investor ID,First name,Last name,Email,Date of birth,Country,,', // line 1
  'inv-1,Ada,Lovelace,ada@example.com,1980-12-10,GB,,', // 2
  'inv-2,Bob,Marley,bob@gmail,1975-01-02,JM,,', // 3: no dot in the domain
  'inv-3,Cy,Young,cy@example.com,2999-01-01,US,,', // 4: born in the future
  'inv-4,Di,Prince,di@example.com,1961-07-01,,,', // 5: no country (a warning)
  ',,,,,,,', // 6: an empty row
  'inv-5,Ed,Narnia,ed@example.com,1970-03-03,Narnia,,', // 7
  'inv-6,Flo,Narnia,flo@example.com,1970-03-03,Narnia,,', // 8
  'inv-1,Ada,Lovelace,ada@example.com,1980-12-10,GB,,', // 9: inv-1 again, the same person (a warning)
  'inv-2,Bea,Other,bea@example.com,1990-01-01,FR,,', // 10: inv-2 again, another person
  'inv-7,Ada,Lovelace,ADA@example.com,1980-12-10,GB,,', // 11: Ada's e-mail under another id (a warning)
  'inv-8,Gil,Narnia,gil@example.com,1970-03-03,Narnia,,', // 12
  'Total,,,,,,,', // 13
  '',
].join('\n');

describe('import --check catches what will fail, by file line', { timeout: IMPORT_TIMEOUT_MS }, () => {
  it('a Google Sheets export: total row, future birth date, dotless domain, repeats, empty country, grouped', async () => {
    const partner = await newPartner(env);
    const file = join(env.dir, 'sheets.csv');
    await writeFile(file, SHEET);
    const { status, stdout, stderr } = await runCli(['import', 'investors', file, '--check'], {
      env: partner.env,
    });
    expect(stdout.split('\n')).toEqual([
      "line 3: Email: 'bob@gmail' has no dot in its domain (name@example.com); the address cannot receive mail",
      "line 4: Date of birth: '2999-01-01' is in the future",
      'lines 7, 8, 12 (×3): Country: country "Narnia" not recognised (names in English, French, German, Spanish, Italian or Dutch, or ISO codes); write its two-letter ISO code (DE)',
      "line 10: Investor ID: 'inv-2' is also the id of line 3, with other details: one id names one person",
      "line 13: looks like a total row ('Total'), not data: delete it from the file",
      'warning: line 5: Country: empty',
      "warning: line 9: Investor ID: 'inv-1' repeats line 2 (sent once: no second person)",
      "warning: line 11: Email: 'ADA@example.com' is also on line 2, under another id: the same person twice?",
      '',
    ]);
    expect(stderr).toContain(
      `${file}: 11 rows, 7 bad row(s); 3 row(s) with warnings (the service may refuse them); nothing was sent`,
    );
    expect(status).toBe(4);
  });
});

describe('the import compares with what its check saw', { timeout: IMPORT_TIMEOUT_MS }, () => {
  // The check pass and the send pass share one table of the ids and e-mails seen (a million rows would
  // otherwise hold two): a first occurrence met again by the second pass is still a first occurrence.
  it('the same sheet imported: a repeated person is sent once, its first line created, the later one repeated', async () => {
    const partner = await newPartner(env);
    const file = join(env.dir, 'sheets-import.csv');
    const out = join(env.dir, 'sheets-results.csv');
    await writeFile(file, SHEET);
    const { status } = await runCli(['import', 'investors', file, '--out', out], { env: partner.env });
    expect(status).toBe(3);
    const results = new Map((await readCsvFile(out)).map((row) => [row['line'], row]));
    expect([...results.keys()]).toEqual(['2', '3', '4', '5', '7', '8', '9', '10', '11', '12', '13']);
    expect(results.get('2')).toMatchObject({ status: 'created', errorCode: '' });
    expect(results.get('9')).toMatchObject({ status: 'repeated', servicePersonId: '', errorCode: '' });
    expect(results.get('10')).toMatchObject({
      status: 'failed',
      errorMessage:
        "Investor ID: 'inv-2' is also the id of line 3, with other details: one id names one person",
    });
    // The same e-mail under another id is a warning, not a refusal: another person is made.
    expect(results.get('11')).toMatchObject({ status: 'created' });
    expect(results.get('11')?.['servicePersonId']).not.toBe(results.get('2')?.['servicePersonId']);
    expect([...results.values()].filter((row) => row['status'] === 'created')).toHaveLength(2);
  });
});
