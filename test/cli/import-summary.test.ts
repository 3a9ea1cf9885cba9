import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowOutcome } from '../../src/cli/import/import-kind.js';
import { Lines, withFileLines } from '../../src/cli/import/send-rows.js';
import { runCli } from './cli-process.js';
import {
  IMPORT_TIMEOUT_MS,
  type ImportFake,
  INVESTOR_HEADER,
  investorLine,
  newPartner,
  startImportFake,
} from './import-fake.js';

// Issue 49: what the import says at its end, without opening the results file.
let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake();
});
afterAll(() => env.close());

describe('the end of an import', { timeout: IMPORT_TIMEOUT_MS }, () => {
  it('every row failing on a 503 says the service was unavailable and to run the same command again', async ({
    onTestFinished,
  }) => {
    const partner = await newPartner(env);
    const file = join(env.dir, `down-${partner.clientId}.csv`);
    await writeFile(file, `${INVESTOR_HEADER}\n${investorLine(1)}\n${investorLine(2)}\n`);
    env.fake.faults.inject({ match: { method: 'POST', path: '/v1/investors' }, status: 503, times: 10 });
    onTestFinished(() => env.fake.faults.clear());
    const { status, stderr } = await runCli(['import', 'investors', file], { env: partner.env });
    expect(stderr).toContain(
      'Stopped with 0 of 2 rows done; the service was unavailable; run the same command again (rows done are replayed, not created again).',
    );
    expect(stderr).not.toContain('fix the cause');
    expect(status).toBe(1);
  });

  it('prints a count of failed rows by reason, with their lines, not only in the results file', async () => {
    const partner = await newPartner(env);
    const file = join(env.dir, `reasons-${partner.clientId}.csv`);
    const lines = [1, 2, 3, 4, 5, 6].map((i) =>
      i % 2 === 0 ? investorLine(i).replace(/,DE$/, ',Narnia') : investorLine(i),
    );
    lines.push(investorLine(7).replace('investor7@example.com', 'not-an-email'));
    await writeFile(file, `${INVESTOR_HEADER}\n${lines.join('\n')}\n`);
    const { status, stderr } = await runCli(['import', 'investors', file, '--quiet'], { env: partner.env });
    expect(stderr).toContain('Failed rows by reason:\n');
    expect(stderr).toMatch(
      /^ {2}×3 invalid_field \(countryOfResidence\), lines 3, 5, 7: countryOfResidence: country "Narnia" not recognised/m,
    );
    expect(stderr).toMatch(/^ {2}×1 invalid_field \(email\), line 8: email: "not-an-email"/m);
    expect(status).toBe(3);
  });

  it("a message naming a row of the call by index also names the row's file line", () => {
    // Line 3 was refused locally (not sent, but a row of the call): the call's index 2 is line 4.
    const lines = new Lines();
    for (const line of [2, 3, 4, 7]) lines.push(line);
    const shared = { code: 'duplicate', message: 'appears at index 2 of this call', retryable: false };
    const outcomes: RowOutcome[] = [
      { status: 'created', id: 'per_1' },
      { status: 'failed', error: { code: 'invalid_field', message: 'email: bad', retryable: false } },
      { status: 'failed', error: shared },
      { status: 'failed', error: shared },
    ];
    withFileLines(outcomes, lines);
    expect(outcomes.map((outcome) => outcome.error?.message)).toEqual([
      undefined,
      'email: bad',
      'appears at index 2 (line 4 of the file) of this call',
      'appears at index 2 (line 4 of the file) of this call',
    ]);
  });
});
