import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';
import {
  type ImportFake,
  INVESTOR_HEADER,
  investorLine,
  newPartner,
  readCsvFile,
  requestsTo,
  startImportFake,
} from './import-fake.js';

// A proxy in front of the service refuses JSON bodies over 64 KiB with an HTML 413 page; 500 investor rows
// (about 80 KB) do not fit.
let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake({ maxBodyBytes: 64 * 1024 });
});
afterAll(() => env.close());

describe('partner-equity import behind a 64 KiB body cap', () => {
  it('splits the refused chunks, imports every row once and says what size worked', async () => {
    const rows = 3_000;
    const partner = await newPartner(env);
    const file = join(env.dir, 'capped.csv');
    await writeFile(
      file,
      `${INVESTOR_HEADER}\n${Array.from({ length: rows }, (_, i) => investorLine(i, 'capped')).join('\n')}\n`,
    );
    const out = join(env.dir, 'capped-results.csv');
    const before = env.fake.requests.length;
    const { status, stdout, stderr } = await runCli(['import', 'investors', file, '--out', out, '--json'], {
      env: partner.env,
    });
    expect(status).toBe(0);
    const summary = JSON.parse(stdout.trimEnd().split('\n').at(-1) ?? '{}');
    expect(summary).toMatchObject({ status: 'done', done: rows, failed: 0 });
    expect(stdout).toMatch(/"fittedRows":250/);
    expect(stderr).toMatch(
      /the service refused bodies of \d+ bytes as too large; .*250 rows per request worked/,
    );
    const results = await readCsvFile(out);
    expect(results.map((row) => row['partnerInvestorId'])).toEqual(
      Array.from({ length: rows }, (_, i) => `capped-${i}`),
    );
    const posts = requestsTo(env.fake, /^\/v1\/investors$/, before);
    expect(posts.filter((r) => r.status === 413).length).toBeGreaterThan(0);
    const persons = env.fake.admin
      .snapshot()
      .persons.filter((p) => p.partnerInvestorId?.startsWith('capped-'));
    expect(persons).toHaveLength(rows);
  });
});
