import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './cli-process.js';
import {
  approvedSpv,
  IMPORT_TIMEOUT_MS,
  type ImportFake,
  INVESTOR_HEADER,
  investorLine,
  newPartner,
  readCsvFile,
  requestsTo,
  startImportFake,
} from './import-fake.js';

let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake();
});
afterAll(() => env.close());

async function investorsFile(name: string, rows: number, prefix: string): Promise<string> {
  const file = join(env.dir, name);
  const lines = Array.from({ length: rows }, (_, i) => investorLine(i, prefix));
  await writeFile(file, `${INVESTOR_HEADER}\n${lines.join('\n')}\n`);
  return file;
}

/** A chunk index from a fixed seed: "random", and the same on every run. */
function chunkFromSeed(seed: number, chunks: number): number {
  const x = Math.sin(seed) * 10_000;
  return 2 + Math.floor((x - Math.floor(x)) * (chunks - 4));
}

describe('partner-equity import: crash-safe re-runs', { timeout: IMPORT_TIMEOUT_MS }, () => {
  it('chains investors into subscriptions through --people; a SIGKILL at a random chunk, then a re-run, creates every subscription once', async () => {
    const rows = 3_000;
    const partner = await newPartner(env);
    const spv = await approvedSpv(env.fake, partner);
    const people = join(env.dir, 'people.csv');
    const investors = await runCli(
      ['import', 'investors', await investorsFile('chain.csv', rows, 'chain'), '--out', people, '--quiet'],
      { env: partner.env },
    );
    expect(investors.stderr).toBe('');
    expect(investors.status).toBe(0);
    const personOf = new Map(
      (await readCsvFile(people)).map((row) => [row['partnerInvestorId'], row['servicePersonId']]),
    );

    // Investors named by partnerInvestorId, no partnerSubscriptionId: only the keys keep a re-run from
    // subscribing anyone twice (the fake refuses a second open subscription of a person in an SPV).
    const file = join(env.dir, 'subscriptions.csv');
    const lines = Array.from(
      { length: rows },
      (_, i) => `chain-${i},${spv.currency},${1000 + i}.00,${spv.shareClassSlug}`,
    );
    await writeFile(
      file,
      `partnerInvestorId,lumpSum.currency,lumpSum.value,shareClassSlug\n${lines.join('\n')}\n`,
    );
    const out = join(env.dir, 'subscriptions-results.csv');
    const args = [
      'import',
      'subscriptions',
      spv.spvSlug,
      file,
      '--people',
      people,
      '--out',
      out,
      '--chunk-size',
      '100',
    ];

    // Early in the file: chunks ahead of the one reported are already in flight (up to 2 x concurrency of
    // them), and on a quiet machine the last ones finished before a SIGKILL at a late chunk landed.
    const killAt = chunkFromSeed(29, 10);
    const first = startCli([...args, '--json'], { env: partner.env });
    await first.waitFor(new RegExp(`"type":"progress","done":${killAt * 100},`), 'stdout');
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe(null);
    const ofSpv = () => env.fake.admin.snapshot().subscriptions.filter((s) => s.spvSlug === spv.spvSlug);
    const afterKill = ofSpv().length;
    expect(afterKill).toBeGreaterThanOrEqual(killAt * 100);
    expect(afterKill).toBeLessThan(rows);

    const from = env.fake.requests.length;
    const rerun = await runCli(args, { env: partner.env });
    expect(rerun.stderr).toMatch(/Imported .*: 3,000 of 3,000 rows done, 0 failed/);
    expect(rerun.status).toBe(0);

    const subscriptions = ofSpv();
    expect(subscriptions).toHaveLength(rows);
    expect(new Set(subscriptions.map((s) => s.personId)).size).toBe(rows);
    const slugOf = new Map(subscriptions.map((s) => [s.personId, s.slug]));
    const results = await readCsvFile(out);
    expect(results).toHaveLength(rows);
    results.forEach((row, i) => {
      const personId = personOf.get(`chain-${i}`);
      expect(row).toMatchObject({
        line: String(i + 2),
        partnerInvestorId: `chain-${i}`,
        servicePersonId: personId,
      });
      expect(row['subscriptionSlug']).toBe(slugOf.get(personId ?? ''));
      expect(row['errorCode']).toBe('');
    });
    // The chunks answered before the kill were replayed, not sent anew; nothing was refused.
    const posts = requestsTo(env.fake, /\/subscriptions$/, from);
    expect(posts).toHaveLength(rows / 100);
    expect(posts.filter((post) => post.replayed === true).length).toBeGreaterThanOrEqual(killAt);
    expect(posts.every((post) => post.status === 201)).toBe(true);
  });

  it('Ctrl-C stops after the chunk in flight, says how to resume and exits 130; the same command then finishes', async () => {
    const rows = 5_000;
    const partner = await newPartner(env);
    const file = await investorsFile('interrupted.csv', rows, 'int');
    const out = join(env.dir, 'interrupted-results.csv');
    const args = ['import', 'investors', file, '--out', out, '--chunk-size', '25', '--concurrency', '1'];
    const first = startCli([...args, '--json'], { env: partner.env });
    await first.waitFor(/"type":"progress"/, 'stdout');
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(130);
    expect(first.stderr()).toMatch(
      /Interrupted after ([\d,]+) of 5,000 rows \(results in .*\)\. Run the same command again to resume/,
    );
    const done = Number(/Interrupted after ([\d,]+)/.exec(first.stderr())?.[1]?.replaceAll(',', ''));
    expect(done % 25).toBe(0);
    expect(done).toBeLessThan(rows);
    expect((await readCsvFile(out)).filter((row) => row['status'] === 'created')).toHaveLength(done);
    const mine = () => env.fake.admin.snapshot().persons.filter((p) => p.clientId === partner.clientId);
    expect(mine()).toHaveLength(done);

    const from = env.fake.requests.length;
    const rerun = await runCli([...args, '--quiet'], { env: partner.env });
    expect(rerun.status).toBe(0);
    expect(mine()).toHaveLength(rows);
    const results = await readCsvFile(out);
    // The rows the first run had done are the API's replays: marked so, not `created`.
    expect(results.map((row) => row['status'])).toEqual([
      ...Array(done).fill('replayed'),
      ...Array(rows - done).fill('created'),
    ]);
    const posts = requestsTo(env.fake, /^\/v1\/investors$/, from);
    expect(posts.filter((post) => post.replayed === true)).toHaveLength(done / 25);
  });
});
