import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';
import {
  IMPORT_TIMEOUT_MS,
  type ImportFake,
  INVESTOR_HEADER,
  investorLine,
  newPartner,
  readCsvFile,
  requestsTo,
  startImportFake,
} from './import-fake.js';

const ROWS = 20_000;
/** Five bad rows of different kinds, by data row index (file line = index + 2), with the column at fault. */
const BAD: Record<number, { line: string; column: string; reason: RegExp }> = {
  10: { line: 'inv-10,not-an-email,Ada,Investor 10,1985-02-28,DE', column: 'email', reason: /e-mail/ },
  4321: { line: 'inv-4321,i@example.com,Ada,I,1985-02-30,DE', column: 'dateOfBirth', reason: /date/i },
  9999: {
    line: 'inv-9999,i@example.com,Ada,I,1985-02-28,Narnia',
    column: 'countryOfResidence',
    reason: /^country "Narnia" not recognised/,
  },
  15000: { line: ',i@example.com,Ada,I,1985-02-28,DE', column: 'partnerInvestorId', reason: /./ },
  19998: { line: 'inv-19998,i@example.com,Ada', column: '', reason: /has 3 cells, the header has 6/ },
};

let env: ImportFake;
let file: string;
beforeAll(async () => {
  env = await startImportFake();
  file = join(env.dir, 'investors.csv');
  const lines = Array.from({ length: ROWS }, (_, i) => BAD[i]?.line ?? investorLine(i));
  await writeFile(file, `${INVESTOR_HEADER}\n${lines.join('\n')}\n`);
});
afterAll(() => env.close());

describe('partner-equity import investors: 20,000 rows, 5 of them bad', {
  timeout: IMPORT_TIMEOUT_MS,
}, () => {
  it('--check prints every bad row with its line and column, sends nothing and exits 4', async () => {
    const partner = await newPartner(env);
    const before = env.fake.requests.length;
    const tokensBefore = env.fake.tokenRequests.length;
    const { status, stdout, stderr } = await runCli(['import', 'investors', file, '--check'], {
      env: partner.env,
    });
    // The mapping it used (every header an API field name here), then the verdict.
    expect(stderr).toContain(`'countryOfResidence'  → countryOfResidence\n`);
    expect(stderr.endsWith(`${file}: 20,000 rows, 5 bad row(s); nothing was sent\n`)).toBe(true);
    expect(status).toBe(4);
    // The bad rows share an e-mail: warned about after the errors.
    const lines = stdout
      .trimEnd()
      .split('\n')
      .filter((line) => !line.startsWith('warning: '));
    expect(lines).toHaveLength(5);
    Object.entries(BAD).forEach(([index, bad], i) => {
      const prefix = `line ${Number(index) + 2}: ${bad.column === '' ? '' : `${bad.column}: `}`;
      expect(lines[i]?.startsWith(prefix), `${lines[i]} starts with ${prefix}`).toBe(true);
      expect(lines[i]?.slice(prefix.length)).toMatch(bad.reason);
    });
    expect(env.fake.requests.length).toBe(before);
    expect(env.fake.tokenRequests.length).toBe(tokensBefore);
  });

  it('imports the 19,995 good rows and writes a results file matching the input row for row (exit 3)', async () => {
    const partner = await newPartner(env);
    const out = join(env.dir, 'results.csv');
    const before = env.fake.requests.length;
    const { status, stderr } = await runCli(['import', 'investors', file, '--out', out], {
      env: partner.env,
    });
    expect(stderr).toMatch(/^5 row\(s\) fail the local check and will not be sent \(see --check\)\n/);
    expect(stderr).toMatch(/Imported .*: 19,995 of 20,000 rows done, 5 failed \(results in .*results\.csv\)/);
    expect(status).toBe(3);

    const results = await readCsvFile(out);
    expect(results).toHaveLength(ROWS);
    const persons = new Map(
      env.fake.admin
        .snapshot()
        .persons.filter((person) => person.clientId === partner.clientId)
        .map((person) => [person.partnerInvestorId, person.id]),
    );
    expect(persons.size).toBe(ROWS - 5);
    results.forEach((row, i) => {
      expect(row['line']).toBe(String(i + 2));
      const bad = BAD[i];
      if (bad === undefined) {
        expect(row).toMatchObject({ partnerInvestorId: `inv-${i}`, status: 'created', errorCode: '' });
        expect(row['servicePersonId']).toBe(persons.get(`inv-${i}`));
      } else {
        expect(row).toMatchObject({ status: 'failed', errorCode: 'invalid_field', errorField: bad.column });
        expect(row['servicePersonId']).toBe('');
        expect(row['retryable']).toBe('false');
      }
    });
    // 40 chunks of 500 data rows, each sent once, with a key of its own.
    const posts = requestsTo(env.fake, /^\/v1\/investors$/, before);
    expect(posts).toHaveLength(40);
    expect(new Set(posts.map((post) => post.idempotencyKey)).size).toBe(40);
  });
});
