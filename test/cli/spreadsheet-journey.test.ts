import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/index.js';
import { spvBody } from '../helpers/spv-body.js';
import { runCli, startCli } from './cli-process.js';
import { readCsvFile } from './import-fake.js';

// The operations team's journey (issue 37): Excel exports from a European office (BOM, `;`, CRLF, headers
// in plain words, day-first dates, country names, decimal commas, stray spaces) imported with the CLI into
// `partner-equity mock`, credentials from its --env-out file, the SPV found with `spv-requests list`.
const ROWS = 300;
const COUNTRIES = [
  ['United Kingdom', 'GB'],
  ['germany', 'DE'],
  ['France', 'FR'],
  ['Czech Republic', 'CZ'],
] as const;

const excel = (lines: string[]) => `\uFEFF${lines.map((line) => `${line}\r\n`).join('')}`;
const email = (i: number) => (i % 3 === 0 ? `chloé.${i}@exemple.fr` : `investor${i}@example.com`);
const day = (i: number) => 1 + (i % 28);
const month = (i: number) => 1 + (i % 12);
const two = (n: number) => String(n).padStart(2, '0');

function investorsFile(): string {
  const lines = ['Investor ID;First name;Last name;E-mail;Date of birth;Country'];
  for (let i = 1; i <= ROWS; i += 1) {
    const date = i === 1 ? '29/02/1980' : `${two(day(i))}/${two(month(i))}/19${60 + (i % 40)}`;
    // Spaces around names and addresses, as cells pasted from elsewhere carry them.
    lines.push(
      `inv-${i};Ada ;Lovelace ${i};${i % 2 === 0 ? ` ${email(i)} ` : email(i)};${date};${COUNTRIES[i % 4]![0]}`,
    );
  }
  return excel(lines);
}

function subscriptionsFile(): string {
  const lines = ['Investor ID;Share class;Currency;Amount;Your reference'];
  for (let i = 1; i <= ROWS; i += 1) {
    const thousands = String(i * 1000).replace(/\B(?=(\d{3})+$)/g, i % 2 === 0 ? '.' : ' ');
    lines.push(`inv-${i};Class A;EUR;${thousands},00;sub-${i}`);
  }
  return excel(lines);
}

/** The fake's state, read as an operator would: the mock's admin API. */
async function snapshot(baseUrl: string) {
  const reply = await fetch(`${baseUrl}/__admin/snapshot`);
  return (await reply.json()) as {
    persons: {
      partnerInvestorId?: string;
      email: string;
      countryOfResidence?: string;
      dateOfBirth?: string;
    }[];
    subscriptions: { partnerSubscriptionId?: string; lumpSum: { value: string }; shareClassSlug: string }[];
  };
}

describe('the spreadsheet journey, with the CLI against the mock', () => {
  it('imports Excel exports of investors and subscriptions, each row created once, the SPV found by its request', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pe-journey-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const envFile = join(dir, '.env');
    // One fault on the first investors chunk: the import retries it under the same key.
    const mock = startCli([
      'mock',
      '--port',
      '0',
      '--auto-approve',
      '--env-out',
      envFile,
      '--fault',
      'POST /v1/investors 503 x1',
    ]);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    expect(mock.stdout()).toContain('Fault injected: POST /v1/investors 503 x1');
    const env = Object.fromEntries(
      [...mock.stdout().matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    const baseUrl = env['PE_BASE_URL']!;

    // A request made by the partner's app; the mock approves it and says which SPV it made.
    const client = new PartnerEquity({
      baseUrl,
      clientId: env['PE_CLIENT_ID']!,
      issuer: env['PE_ISSUER']!,
      privateKey: await readFile(env['PE_PRIVATE_KEY_FILE']!, 'utf8'),
    });
    onTestFinished(() => client.close());
    const request = await client.spvRequests.create(await spvBody(client));
    const [, spvSlug] = await mock.waitFor(
      new RegExp(`^approved ${request.spvRequestSlug}: SPV (\\S+), share classes (\\S+) "Class A"$`, 'm'),
    );

    const investors = join(dir, 'investors.csv');
    await writeFile(investors, investorsFile());
    const withEnv = ['--env-file', envFile];
    // No flag needed (issue 49): the column shows its dates are day first (29/02/1980) and is read so.
    const unflagged = await runCli(['import', 'investors', investors, '--check', ...withEnv]);
    expect(unflagged.stdout).toBe('');
    expect(unflagged.status).toBe(0);
    const check = await runCli([
      'import',
      'investors',
      investors,
      '--check',
      '--date-format',
      'DD/MM/YYYY',
      ...withEnv,
    ]);
    expect(check.stdout).toBe('');
    expect(check.stderr).toContain(`'E-mail'         → email`);
    expect(check.stderr).toContain(`'Date of birth'  → dateOfBirth`);
    expect(check.stderr).toContain(
      `${investors}: ${ROWS} rows, every row passes; spaces trimmed around ${ROWS + ROWS / 2} value(s); nothing was sent`,
    );
    expect(check.status).toBe(0);

    const people = join(dir, 'people.csv');
    const imported = await runCli([
      'import',
      'investors',
      investors,
      '--date-format',
      'DD/MM/YYYY',
      '--out',
      people,
      '--quiet',
      ...withEnv,
    ]);
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    // The --fault fired (the import retried that chunk under its key): nothing is left pending.
    expect(await (await fetch(`${baseUrl}/__admin/faults`)).json()).toEqual({ faults: [] });
    expect(mock.stdout()).not.toMatch(/^approved .*\n.*^approved /ms);
    const held = await snapshot(baseUrl);
    expect(held.persons).toHaveLength(ROWS);
    const byId = new Map(held.persons.map((person) => [person.partnerInvestorId, person]));
    expect(byId.get('inv-1')).toMatchObject({
      email: email(1),
      dateOfBirth: '1980-02-29',
      countryOfResidence: 'DE',
    });
    expect(byId.get('inv-2')).toMatchObject({ email: email(2), countryOfResidence: 'FR' });
    expect(byId.get('inv-3')).toMatchObject({ email: 'chloé.3@exemple.fr', countryOfResidence: 'CZ' });
    expect(byId.get('inv-4')).toMatchObject({
      countryOfResidence: 'GB',
      dateOfBirth: `1964-${two(month(4))}-${two(day(4))}`,
    });

    // The SPV, found from the CLI: the request slug, its SPV and share classes.
    const listed = await runCli(['spv-requests', 'list', '--status', 'approved', '--json', ...withEnv]);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        spvRequestSlug: request.spvRequestSlug,
        status: 'approved',
        name: 'Acme Growth SPV I',
        currency: 'EUR',
        spvSlug,
        shareClasses: [{ slug: expect.any(String), name: 'Class A' }],
      },
    ]);

    const subscriptions = join(dir, 'subscriptions.csv');
    await writeFile(subscriptions, subscriptionsFile());
    const args = [
      'import',
      'subscriptions',
      request.spvRequestSlug,
      subscriptions,
      '--decimal-comma',
      '--people',
      people,
      ...withEnv,
    ];
    const first = await runCli([...args, '--quiet']);
    expect(first.stderr).toBe(`${request.spvRequestSlug} is approved: importing into its SPV ${spvSlug}\n`);
    expect(first.status).toBe(0);
    const again = await runCli([...args, '--quiet']);
    expect(again.status).toBe(0);
    const after = await snapshot(baseUrl);
    expect(after.subscriptions).toHaveLength(ROWS);
    const refs = new Map(after.subscriptions.map((s) => [s.partnerSubscriptionId, s]));
    expect(refs.size).toBe(ROWS);
    expect(refs.get('sub-25')).toMatchObject({ lumpSum: { value: '25000.00' } });
    expect(refs.get('sub-300')).toMatchObject({ lumpSum: { value: '300000.00' } });
    expect((await readCsvFile(people)).filter((row) => row['status'] === 'created')).toHaveLength(ROWS);
  }, 120_000); // seven commands, each its own Node process

  it('--check and the fake agree on addresses with accents and spaces', async ({ onTestFinished }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pe-journey-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const envFile = join(dir, '.env');
    const mock = startCli(['mock', '--port', '0', '--env-out', envFile]);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    const addresses = [
      'chloé@exemple.fr',
      ' anaïs.müller@beispiel.de ',
      'josé@correo.es\u00a0',
      'ελένη@παράδειγμα.gr',
      'plain@example.com',
      'two words@example.com',
      'no-at-sign.example.com',
      'a@b@c.example',
      '@example.com',
    ];
    const file = join(dir, 'emails.csv');
    await writeFile(
      file,
      excel([
        'Investor ID;First name;Last name;Email address;DOB;Country of residence',
        ...addresses.map((address, i) => `mail-${i};Ada;Lovelace;${address};1980-01-0${1 + i};Germany`),
      ]),
    );
    const check = await runCli(['import', 'investors', file, '--check', '--json', '--env-file', envFile]);
    const [columns, ...reported] = check.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; line?: number; problems?: { reason: string }[] });
    expect(columns).toMatchObject({
      type: 'columns',
      columns: [
        { header: 'Investor ID', field: 'partnerInvestorId' },
        { header: 'First name', field: 'firstName' },
        { header: 'Last name', field: 'lastName' },
        { header: 'Email address', field: 'email' },
        { header: 'DOB', field: 'dateOfBirth' },
        { header: 'Country of residence', field: 'countryOfResidence' },
      ],
    });
    const invalid = reported.filter((entry) => entry.type === 'invalid-row');
    const refusedByCheck = invalid.map((entry) => `mail-${(entry.line ?? 0) - 2}`);
    expect(invalid[0]?.problems?.[0]?.reason).toBe(
      '"two words@example.com" is not an e-mail address; write it as name@domain, with no spaces inside',
    );

    // Every row sent to the fake as the CLI reads it (trimmed), bypassing the local check.
    const token = (await runCli(['token', '--env-file', envFile])).stdout.trim();
    const baseUrl = /^PE_BASE_URL=(.*)$/m.exec(mock.stdout().replaceAll('export ', ''))![1]!;
    const reply = await fetch(`${baseUrl}/v1/investors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        investors: addresses.map((address, i) => ({
          partnerInvestorId: `mail-${i}`,
          email: address.trim(),
          firstName: 'Ada',
          lastName: 'Lovelace',
          dateOfBirth: `1980-01-0${1 + i}`,
          countryOfResidence: 'DE',
        })),
      }),
    });
    const { results } = (await reply.json()) as {
      results: { partnerInvestorId: string; error?: { code: string } }[];
    };
    const refusedByFake = results.filter((row) => row.error != null).map((row) => row.partnerInvestorId);
    expect(results.filter((row) => row.error != null).map((row) => row.error?.code)).toEqual(
      refusedByFake.map(() => 'invalid_email'),
    );
    expect(refusedByCheck).toEqual(['mail-5', 'mail-6', 'mail-7', 'mail-8']);
    expect(refusedByFake).toEqual(refusedByCheck);
  }, 60_000); // the mock and two commands, each its own Node process

  // Issue 49: a Google Sheets export of one sheet (trailing empty columns, empty rows, a "Total" row, people
  // entered twice, a few bad rows), through --check, then --with-investors against the mock behind a rate
  // limit and a body cap, killed once with SIGKILL, run again, fixed as --check said, and run once more.
  it('one Google Sheets export, both steps: checked, killed, re-run and fixed, every row created once', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pe-journey-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const envFile = join(dir, '.env');
    const mock = startCli([
      'mock',
      '--port',
      '0',
      '--spv',
      'EUR:Class A',
      '--rate-limit',
      '10/s',
      '--max-body',
      '64k',
      '--env-out',
      envFile,
    ]);
    onTestFinished(async () => {
      await mock.stop();
    });
    const [, spvSlug] = await mock.waitFor(/^SPV (spv_\S+) \(EUR, request spvr_\S+\), share classes/m);
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    const baseUrl = /^export PE_BASE_URL=(.*)$/m.exec(mock.stdout())![1]!;

    const PEOPLE = 600;
    const bad = { gmail: 120, future: 377 }; // by investor number
    const row = (i: number, ref: string) => {
      const mail = i === bad.gmail ? `person${i}@gmail` : `person${i}@example.com`;
      const born = i === bad.future ? '2999-04-01' : `19${50 + (i % 40)}-0${1 + (i % 9)}-1${i % 10}`;
      return `inv-${i},Ann,Person ${i},${mail},${born},DE,${i}000.00,${ref},,`;
    };
    const lines = ['Investor ID,First name,Last name,Email,Date of birth,Country,Amount,Your reference,,'];
    for (let i = 1; i <= PEOPLE; i += 1) {
      lines.push(row(i, `ref-${i}`));
      if (i % 200 === 0) lines.push(',,,,,,,,,'); // an empty row now and then
    }
    // Three people entered twice under other ids: warned about, and (as the service sees it) new investors.
    for (const i of [1, 2, 3]) lines.push(row(i, `ref-again-${i}`).replace(`inv-${i},`, `inv-again-${i},`));
    lines.push('Total,,,,,,1803000.00,,,');
    const sheet = join(dir, 'export.csv');
    await writeFile(sheet, `${lines.join('\n')}\n`);
    const lineOf = (text: string) => lines.findIndex((line) => line.startsWith(text)) + 1;

    const args = ['import', 'subscriptions', spvSlug!, sheet, '--with-investors'];
    const flags = ['--currency', 'EUR', '--share-class', 'Class A', '--env-file', envFile];
    const check = await runCli([...args, ...flags, '--check']);
    const errors = check.stdout.split('\n').filter((line) => line !== '' && !line.startsWith('warning: '));
    expect(errors).toEqual([
      `line ${lineOf(`inv-${bad.gmail},`)}: Email: 'person${bad.gmail}@gmail' has no dot in its domain (name@example.com); the address cannot receive mail`,
      `line ${lineOf(`inv-${bad.future},`)}: Date of birth: '2999-04-01' is in the future`,
      `line ${lines.length}: looks like a total row ('Total'), not data: delete it from the file`,
      // The subscriptions step refuses the total row too.
      `line ${lines.length}: looks like a total row ('Total'), not data: delete it from the file`,
    ]);
    expect(check.status).toBe(4);
    expect(check.stdout).toContain(
      `warning: line ${lineOf('inv-again-1,')}: Email: 'person1@example.com' is also on line 2, under another id: the same person twice?`,
    );

    // Killed (SIGKILL) as soon as the first chunk was answered, then the same command again.
    const out = join(dir, 'results.csv');
    const killed = startCli([...args, ...flags, '--out', out, '--json']);
    await killed.waitFor(/"type":"progress"/, 'stdout');
    killed.child.kill('SIGKILL');
    await killed.exited;
    const rerun = await runCli([...args, ...flags, '--out', out, '--quiet']);
    expect(rerun.status).toBe(3);
    const results = await readCsvFile(out);
    const failedLines = results.filter((r) => r['status'] === 'failed' && r['errorCode'] !== 'not_sent');
    expect(failedLines.map((r) => Number(r['line']))).toEqual([
      lineOf(`inv-${bad.gmail},`),
      lineOf(`inv-${bad.future},`),
      lines.length,
    ]);

    // Fixed as --check said, and run again: every good row created once, nothing left behind.
    const fixed = lines
      .filter((line) => !line.startsWith('Total,'))
      .map((line) => line.replace(`person${bad.gmail}@gmail,`, `person${bad.gmail}@gmail.com,`))
      .map((line) => line.replace(',2999-04-01,', ',1999-04-01,'));
    await writeFile(sheet, `${fixed.join('\n')}\n`);
    const last = await runCli([...args, ...flags, '--out', out, '--quiet']);
    // Only the SDK's note that the body cap split chunks (each step's client learns it anew).
    expect(
      last.stderr.split('\n').filter((line) => !/refused bodies of \d+ bytes as too large/.test(line)),
    ).toEqual(['']);
    expect(last.status).toBe(0);
    const held = (await (await fetch(`${baseUrl}/__admin/snapshot`)).json()) as {
      persons: { partnerInvestorId?: string }[];
      subscriptions: { partnerSubscriptionId?: string; spvSlug: string }[];
    };
    const ids = held.persons.map((p) => p.partnerInvestorId);
    expect(ids).toHaveLength(PEOPLE + 3);
    expect(new Set(ids).size).toBe(PEOPLE + 3);
    const refs = held.subscriptions.filter((s) => s.spvSlug === spvSlug).map((s) => s.partnerSubscriptionId);
    expect(refs).toHaveLength(PEOPLE + 3);
    expect(new Set(refs).size).toBe(PEOPLE + 3);
    expect((await readCsvFile(out)).every((r) => r['status'] !== 'failed')).toBe(true);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 300_000);
});
