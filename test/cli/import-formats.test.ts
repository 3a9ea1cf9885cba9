import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';
import {
  approvedSpv,
  IMPORT_TIMEOUT_MS,
  type ImportFake,
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

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(env.dir, name);
  await writeFile(path, content);
  return path;
}

describe('partner-equity import: the files operations teams have', { timeout: IMPORT_TIMEOUT_MS }, () => {
  it('reads a UTF-8 BOM, `;`, CRLF, a quoted field with a line break and the e-mail / dob aliases', async () => {
    const partner = await newPartner(env);
    const csv = [
      'PartnerInvestorId;E-Mail;firstName;LASTNAME;DOB;countryOfResidence',
      'bom-1;ann@example.com;"Ann\r\nMarie";"Lee; Jr.";1980-01-02;FR',
      '',
      'bom-2;bob@example.com;Bob;"O""Brien";1990-03-04;DE',
    ].join('\r\n');
    const path = await file(
      'bom.csv',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${csv}\r\n`)]),
    );
    const out = join(env.dir, 'bom-results.csv');
    const { status, stderr } = await runCli(['import', 'investors', path, '--out', out, '--quiet'], {
      env: partner.env,
    });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const results = await readCsvFile(out);
    // The results repeat the input's own columns, under its own header names.
    expect(results.map((row) => [row['line'], row['PartnerInvestorId'], row['status']])).toEqual([
      ['2', 'bom-1', 'created'],
      ['5', 'bom-2', 'created'],
    ]);
    const persons = env.fake.admin.snapshot().persons.filter((p) => p.clientId === partner.clientId);
    expect(
      persons.map(({ partnerInvestorId, email, firstName, lastName, dateOfBirth }) => ({
        partnerInvestorId,
        email,
        firstName,
        lastName,
        dateOfBirth,
      })),
    ).toEqual([
      {
        partnerInvestorId: 'bom-1',
        email: 'ann@example.com',
        firstName: 'Ann\r\nMarie',
        lastName: 'Lee; Jr.',
        dateOfBirth: '1980-01-02',
      },
      {
        partnerInvestorId: 'bom-2',
        email: 'bob@example.com',
        firstName: 'Bob',
        lastName: 'O"Brien',
        dateOfBirth: '1990-03-04',
      },
    ]);
  });

  it('reads renamed columns through --map, skips one with --map column=, and takes --delimiter', async () => {
    const partner = await newPartner(env);
    const path = await file(
      'mapped.csv',
      'id|mail|Given name|Family name|Born|Country|Notes\nmap-1|m@example.com|Mia|Wong|1975-12-31|SG|VIP, call first\n',
    );
    const maps = [
      'id=partnerInvestorId',
      'mail=email',
      'Given name=firstName',
      'family NAME=lastName',
      'Born=dateOfBirth',
      'Country=countryOfResidence',
      'Notes=',
    ];
    const { status, stderr } = await runCli(
      ['import', 'investors', path, '--delimiter', '|', ...maps.flatMap((map) => ['--map', map])],
      { env: partner.env },
    );
    expect(stderr).toMatch(/Imported .*: 1 of 1 rows done, 0 failed/);
    expect(status).toBe(0);
    const [person] = env.fake.admin.snapshot().persons.filter((p) => p.clientId === partner.clientId);
    expect(person).toMatchObject({ partnerInvestorId: 'map-1', firstName: 'Mia', countryOfResidence: 'SG' });
  });

  it.each([
    [
      'an unknown column',
      'partnerInvestorId,email,Notes\ni-1,a@example.com,x\n',
      /column 'Notes' matches no investors field \(read it with --map 'Notes=<field>' or skip it with --map 'Notes='\)/,
    ],
    [
      'no partnerInvestorId column',
      'email,firstName\na@example.com,A\n',
      /no column for partnerInvestorId \(required\)/,
    ],
    [
      'a quote left open on the last row',
      'partnerInvestorId,email\ni-1,a@example.com\ni-2,"b@example.com\n',
      /Quote Not Closed/,
    ],
  ])(
    'refuses a file with %s: exit 4, nothing sent, not even a token request',
    async (_name, content, message) => {
      const partner = await newPartner(env);
      const path = await file('refused.csv', content);
      const before = env.fake.requests.length + env.fake.tokenRequests.length;
      const { status, stderr } = await runCli(['import', 'investors', path], { env: partner.env });
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(status).toBe(4);
      expect(env.fake.requests.length + env.fake.tokenRequests.length).toBe(before);
    },
  );

  it('subscriptions: a chunk the API refuses names its bad row; a chunk holding a locally bad row is not sent (exit 3)', async () => {
    const partner = await newPartner(env);
    const spv = await approvedSpv(env.fake, partner);
    const { results: people } = await partner.client.investors.create(
      Array.from({ length: 6 }, (_, i) => ({
        partnerInvestorId: `s-${i}`,
        email: `s${i}@example.com`,
        firstName: 'S',
        lastName: `${i}`,
        dateOfBirth: '1980-01-01',
        countryOfResidence: 'DE',
      })),
    );
    const ids = people.map((row) => row.servicePersonId ?? '');
    const rows = [
      `${ids[0]},${spv.currency},100.00,${spv.shareClassSlug},sub-0`,
      // Refused by the API (the fake takes one subscription per investor in a request): chunk 0 is not created.
      `${ids[0]},${spv.currency},100.00,${spv.shareClassSlug},sub-1`,
      `${ids[2]},${spv.currency},100.00,${spv.shareClassSlug},sub-2`,
      `${ids[3]},${spv.currency},-5,${spv.shareClassSlug},sub-3`, // refused locally: chunk 1 is held back
      `${ids[4]},${spv.currency},100.00,${spv.shareClassSlug},sub-4`,
      `${ids[5]},${spv.currency},100.00,${spv.shareClassSlug},sub-5`,
    ];
    const path = await file(
      'subs.csv',
      `servicePersonId,lumpSum.currency,lumpSum.value,shareClassSlug,partnerSubscriptionId\n${rows.join('\n')}\n`,
    );
    const out = join(env.dir, 'subs-results.csv');
    const before = env.fake.requests.length;
    const { status } = await runCli(
      ['import', 'subscriptions', spv.spvSlug, path, '--out', out, '--chunk-size', '2', '--quiet'],
      { env: partner.env },
    );
    expect(status).toBe(3);
    const results = await readCsvFile(out);
    expect(
      results.map((row) => [
        row['partnerSubscriptionId'],
        row['errorCode'],
        row['errorField'],
        row['retryable'],
      ]),
    ).toEqual([
      ['sub-0', 'chunk_refused', '', 'true'],
      ['sub-1', 'duplicate_in_request', 'servicePersonId', 'false'],
      ['sub-2', 'not_sent', '', 'true'],
      ['sub-3', 'invalid_field', 'lumpSum.value', 'false'],
      ['sub-4', '', '', ''],
      ['sub-5', '', '', ''],
    ]);
    expect(results[4]?.['subscriptionSlug']).toMatch(/\S/);
    expect(requestsTo(env.fake, /\/subscriptions$/, before).map((r) => r.status)).toEqual([400, 201]);
    expect(env.fake.admin.snapshot().subscriptions.filter((s) => s.spvSlug === spv.spvSlug)).toHaveLength(2);
  });

  it('--help says how long a re-run stays safe, what happens after, and every exit status', async () => {
    const { status, stdout } = await runCli(['import', 'subscriptions', '--help']);
    expect(status).toBe(0);
    expect(stdout).toContain('Usage: partner-equity import subscriptions <spv-slug> <file.csv>');
    expect(stdout).toMatch(
      /keeps keys for 24 hours; after that, or once you edit rows, a re-sent investor is matched by the service's\nown dedupe on partnerInvestorId/,
    );
    expect(stdout).toMatch(
      /Exit status: 0 every row done; 3 some rows failed .*; 4 bad input, nothing sent/s,
    );
    expect(stdout).toMatch(/130 interrupted \(run the same command again to\nresume\)/);
    const missing = await runCli(['import', 'subscriptions', 'spv_1']);
    expect(missing.stderr).toMatch(/^partner-equity import subscriptions: missing <file>/);
    expect(missing.status).toBe(2);
  });

  it('subscriptions named by partnerInvestorId need --people (exit 2)', async () => {
    const partner = await newPartner(env);
    const path = await file(
      'no-people.csv',
      'partnerInvestorId,lumpSum.currency,lumpSum.value,shareClassSlug\ni-1,EUR,1.00,a\n',
    );
    const { status, stderr } = await runCli(['import', 'subscriptions', 'spv_x', path], { env: partner.env });
    expect(stderr).toMatch(
      /names investors by partnerInvestorId: pass --with-investors \(the same rows make the investors\) or --people <file>/,
    );
    expect(status).toBe(2);
  });
});
