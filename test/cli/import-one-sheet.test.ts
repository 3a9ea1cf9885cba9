import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';
import {
  IMPORT_TIMEOUT_MS,
  type ImportFake,
  newPartner,
  readCsvFile,
  requestsTo,
  startImportFake,
} from './import-fake.js';

// Issue 49, "One sheet, both steps": a subscriptions sheet as exported, with its investor columns, and
// neither a currency nor a share class column.
let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake({ seed: { spvs: [{ currency: 'EUR' }, { currency: 'USD' }] } });
});
afterAll(() => env.close());

async function partnerSpvs() {
  const partner = await newPartner(env);
  const spvs = env.fake.admin.snapshot().spvs.filter((spv) => spv.clientId === partner.clientId);
  const spv = (currency: string) => spvs.find((candidate) => candidate.currency === currency)!;
  return { partner, eur: spv('EUR'), usd: spv('USD') };
}

describe('import subscriptions: one sheet', { timeout: IMPORT_TIMEOUT_MS }, () => {
  it('--check reads the SPV, refuses rows in another currency by line, and lists the investor columns it ignores', async () => {
    const { partner, eur } = await partnerSpvs();
    const file = join(env.dir, `sheet-${partner.clientId}.csv`);
    await writeFile(
      file,
      [
        'Person ID,E-mail,Country,Currency,Amount,Share class',
        'per_1,ada@example.com,DE,EUR,25000.00,Class A',
        'per_2,bob@example.com,FR,USD,1000.00,Class A',
        'per_3,cy@example.com,Belgique,eur,500,Class A',
        '',
      ].join('\n'),
    );
    const before = env.fake.requests.length;
    const { status, stdout, stderr } = await runCli(['import', 'subscriptions', eur.slug, file, '--check'], {
      env: partner.env,
    });
    expect(stdout).toBe(`line 3: Currency: 'USD', but SPV ${eur.slug} takes EUR only\n`);
    expect(stderr).toContain("investor columns not read (--with-investors reads them): 'E-mail', 'Country'");
    expect(status).toBe(4);
    // Reads only: the SPV was looked up, nothing was written.
    const writes = env.fake.requests.slice(before).filter((request) => request.method === 'POST');
    expect(writes.map((request) => request.path)).toEqual(['/v1/oauth2/tokens']);
    expect(requestsTo(env.fake, /^\/v1\/spv-requests/, before).length).toBeGreaterThan(0);
  });

  it('--currency and --share-class (by name) fill columns the file lacks', async () => {
    const { partner, usd } = await partnerSpvs();
    const file = join(env.dir, `nocurrency-${partner.clientId}.csv`);
    const people = await partner.client.investors.create(
      [1, 2].map((i) => ({
        partnerInvestorId: `inv-${i}`,
        email: `ada${i}@example.com`,
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1980-12-31',
        countryOfResidence: 'GB',
      })),
    );
    const [one, two] = people.results.map((row) => row.servicePersonId ?? '');
    await writeFile(file, `Person ID,Amount,Your reference\n${one},25000.00,ref-1\n${two},100,ref-2\n`);
    const { status, stderr } = await runCli(
      ['import', 'subscriptions', usd.slug, file, '--currency', 'usd', '--share-class', 'class a', '--quiet'],
      { env: partner.env },
    );
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const made = env.fake.admin
      .snapshot()
      .subscriptions.filter((subscription) => subscription.spvSlug === usd.slug);
    expect(made.map((s) => [s.partnerSubscriptionId, s.lumpSum.currency, s.shareClassSlug])).toEqual([
      ['ref-1', 'USD', usd.shareClasses[0]?.slug],
      ['ref-2', 'USD', usd.shareClasses[0]?.slug],
    ]);
  });

  it('--share-class naming no class of the SPV is refused before anything is sent', async () => {
    const { partner, eur } = await partnerSpvs();
    const file = join(env.dir, `badclass-${partner.clientId}.csv`);
    await writeFile(file, 'Person ID,Amount\nper_1,25000.00\n');
    const { status, stderr } = await runCli(
      ['import', 'subscriptions', eur.slug, file, '--currency', 'EUR', '--share-class', 'Class Z'],
      { env: partner.env },
    );
    expect(stderr).toContain('--share-class: "Class Z" is not a share class of this SPV');
    expect(status).toBe(4);
  });

  it('--with-investors makes the investors from the same rows, then their subscriptions; a re-run makes nothing twice', async () => {
    const { partner, eur } = await partnerSpvs();
    const file = join(env.dir, `both-${partner.clientId}.csv`);
    await writeFile(
      file,
      [
        'Investor ID,First name,Last name,E-mail,Date of birth,Country,Amount,Your reference',
        'inv-1,Ada,Lovelace,ada@example.com,1980-12-10,GB,25000.00,ref-1',
        'inv-2,Bob,Marley,bob@gmail,1975-01-02,JM,1000.00,ref-2',
        'inv-3,Cy,Young,cy@example.com,1970-01-01,US,500,ref-3',
        '',
      ].join('\n'),
    );
    const args = ['import', 'subscriptions', eur.slug, file, '--with-investors', '--currency', 'EUR'];
    const classArgs = ['--share-class', 'Class A'];
    const check = await runCli([...args, ...classArgs, '--check'], { env: partner.env });
    expect(check.stdout).toContain("line 3: E-mail: 'bob@gmail' has no dot in its domain");
    expect(check.status).toBe(4);

    const out = join(env.dir, `both-${partner.clientId}-results.csv`);
    const first = await runCli([...args, ...classArgs, '--out', out], { env: partner.env });
    expect(first.stderr).toContain(`Imported Investors of ${file}: 2 of 3 rows done, 1 failed`);
    // The API takes subscriptions a request whole: the chunk holding inv-2's row is held back.
    expect(first.stderr).toMatch(/^ {2}×2 not_sent, lines 2, 4: /m);
    expect(first.status).toBe(3);
    const results = await readCsvFile(out);
    expect(results.map((row) => [row['line'], row['Investor ID'], row['status']])).toEqual([
      ['2', 'inv-1', 'failed'],
      ['3', 'inv-2', 'failed'],
      ['4', 'inv-3', 'failed'],
    ]);
    expect(results[1]?.['errorMessage']).toContain("investor 'inv-2' was not created or matched");
    const state = () => {
      const snapshot = env.fake.admin.snapshot();
      return {
        persons: snapshot.persons
          .filter((p) => p.clientId === partner.clientId)
          .map((p) => p.partnerInvestorId)
          .sort(),
        subscriptions: snapshot.subscriptions
          .filter((s) => s.spvSlug === eur.slug)
          .map((s) => s.partnerSubscriptionId)
          .sort(),
      };
    };
    expect(state()).toEqual({ persons: ['inv-1', 'inv-3'], subscriptions: [] });
    // Fixed, and run again: the missing investor is made, the others matched, every subscription made once.
    await writeFile(file, (await readFile(file, 'utf8')).replace('bob@gmail', 'bob@gmail.com'));
    const again = await runCli([...args, ...classArgs, '--out', out, '--quiet'], { env: partner.env });
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(state()).toEqual({
      persons: ['inv-1', 'inv-2', 'inv-3'],
      subscriptions: ['ref-1', 'ref-2', 'ref-3'],
    });
    const third = await runCli([...args, ...classArgs, '--quiet'], { env: partner.env });
    expect(third.status).toBe(0);
    expect(state()).toEqual({
      persons: ['inv-1', 'inv-2', 'inv-3'],
      subscriptions: ['ref-1', 'ref-2', 'ref-3'],
    });
  });

  it('warns when a chunk an earlier run created whole is split by this one under new keys (issue 46, finding 9)', async () => {
    const { partner, eur } = await partnerSpvs();
    const people = await partner.client.investors.create(
      [1, 2].map((i) => ({
        partnerInvestorId: `cap-${i}`,
        email: `cap${i}@example.com`,
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1980-12-31',
        countryOfResidence: 'GB',
      })),
    );
    const [one, two] = people.results.map((row) => row.servicePersonId ?? '');
    const file = join(env.dir, `cap-${partner.clientId}.csv`);
    await writeFile(file, `Person ID,Amount,Your reference\n${one},100,cap-ref-1\n${two},200,cap-ref-2\n`);
    const args = ['import', 'subscriptions', eur.slug, file, '--currency', 'EUR', '--share-class', 'Class A'];
    expect((await runCli(args, { env: partner.env })).status).toBe(0);
    // A proxy's body cap appears before the re-run: the chunk is refused as too large and split.
    env.fake.faults.inject({
      match: { method: 'POST', path: `/v1/spvs/${eur.slug}/subscriptions` },
      status: 413,
    });
    const again = await runCli(args, { env: partner.env });
    expect(again.stderr).toContain(
      'warning: lines 2-3 were created in one request by an earlier run; the service now refuses requests that large, so this run sent them again in smaller ones under new keys',
    );
  });
});
