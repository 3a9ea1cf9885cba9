import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spvRequestsList } from '../../src/cli/commands/spv-requests.js';
import { spvBody } from '../helpers/spv-body.js';
import { runCli } from './cli-process.js';
import {
  approvedSpv,
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

describe('partner-equity spv-requests, and import subscriptions given a request slug', () => {
  it('get shows a request as JSON, with credentials read from --env-file', async () => {
    const partner = await newPartner(env);
    const request = await partner.client.spvRequests.create(await spvBody(partner.client));
    const envFile = join(env.dir, `${partner.clientId}.env`);
    await writeFile(
      envFile,
      `${Object.entries(partner.env)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n')}\n`,
    );
    const { status, stdout, stderr } = await runCli(
      ['spv-requests', 'get', request.spvRequestSlug, '--json', '--env-file', envFile],
      {
        env: { PARTNER_EQUITY_RESPONSE_VALIDATION: '' },
      },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      spvRequestSlug: request.spvRequestSlug,
      status: 'pending-review',
      name: 'Acme Growth SPV I',
      currency: 'EUR',
      spvSlug: null,
      shareClasses: [],
    });
  });

  it('list prints a table: slug, status, name, currency, the SPV slug once approved, and share classes', async () => {
    const partner = await newPartner(env);
    const pending = await partner.client.spvRequests.create(await spvBody(partner.client));
    const { spvSlug, shareClassSlug } = await approvedSpv(env.fake, partner);
    let stdout = '';
    const io = {
      stdin: Readable.from([]),
      stdout: new Writable({
        write: (chunk, _encoding, done) => {
          stdout += String(chunk);
          done();
        },
      }),
      stderr: new Writable({ write: (_chunk, _encoding, done) => done() }),
      env: partner.env,
      waitForInterrupt: () => new Promise<string>(() => {}),
    };
    expect(await spvRequestsList.run({}, io)).toBe(0);
    const [header, ...rows] = stdout.trimEnd().split('\n');
    expect(header).toMatch(/^SLUG +STATUS +NAME +CURRENCY +SPV SLUG +SHARE CLASSES$/);
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual(
      expect.stringMatching(
        new RegExp(`^spvr_\\S+ +approved +Acme Growth SPV I +EUR +${spvSlug} +${shareClassSlug} "Class A"$`),
      ),
    );
    expect(rows).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${pending.spvRequestSlug} +pending-review +Acme Growth SPV I +EUR +- +-$`),
      ),
    );
  });

  it('import subscriptions given a request that is not approved, or unknown, says so and sends nothing', async () => {
    const partner = await newPartner(env);
    const request = await partner.client.spvRequests.create(await spvBody(partner.client));
    const approved = await approvedSpv(env.fake, partner);
    const file = join(env.dir, `${partner.clientId}-subs.csv`);
    await writeFile(file, `Person ID,Share class,Currency,Amount\np_1,Class A,${approved.currency},1000\n`);
    const before = env.fake.requests.filter((r) => r.path.includes('/subscriptions')).length;
    const pending = await runCli(['import', 'subscriptions', request.spvRequestSlug, file], {
      env: partner.env,
    });
    expect(pending.stderr).toBe(
      `partner-equity import subscriptions: SPV request ${request.spvRequestSlug} is pending-review, not approved: it has no SPV to import into yet\n`,
    );
    expect(pending.status).toBe(4);
    const unknown = await runCli(['import', 'subscriptions', 'spvr_unknown', file, '--check'], {
      env: partner.env,
    });
    expect(unknown.stderr).toMatch(
      /SPV request spvr_unknown not found for this client: see partner-equity spv-requests list/,
    );
    expect(unknown.status).toBe(4);
    expect(env.fake.requests.filter((r) => r.path.includes('/subscriptions'))).toHaveLength(before);
  }, 60_000); // two imports, each a Node process with a worker thread

  it('an unknown SPV slug stops the import with a hint, and counts no row as done', async () => {
    const partner = await newPartner(env);
    const file = join(env.dir, `${partner.clientId}-nospv.csv`);
    await writeFile(file, 'Person ID,Share class,Currency,Amount\np_1,class-a,EUR,1000\n');
    const { status, stderr } = await runCli(['import', 'subscriptions', 'spv_unknown', file], {
      env: partner.env,
    });
    expect(stderr).toContain(
      '`partner-equity spv-requests list --status approved` shows the SPV slugs to import into',
    );
    expect(stderr).toMatch(
      /Stopped with 0 of 1 rows done; fix the cause and run the same command again\.\n$/,
    );
    expect(status).toBe(1);
  });

  it('an unknown share class is refused before sending, the SPV read for its classes, with the valid slugs listed', async () => {
    const partner = await newPartner(env);
    const { spvSlug, shareClassSlug, currency } = await approvedSpv(env.fake, partner);
    const [person] = (
      await partner.client.investors.create([
        {
          partnerInvestorId: 'p-1',
          email: 'p@example.com',
          firstName: 'A',
          lastName: 'B',
          dateOfBirth: '1980-01-01',
          countryOfResidence: 'DE',
        },
      ])
    ).results;
    const file = join(env.dir, `${partner.clientId}-class.csv`);
    await writeFile(
      file,
      `Person ID,Share class,Currency,Amount\n${person?.servicePersonId},Class Z,${currency},1000\n`,
    );
    const out = join(env.dir, `${partner.clientId}-class-out.csv`);
    const { status, stderr } = await runCli(['import', 'subscriptions', spvSlug, file, '--out', out], {
      env: partner.env,
    });
    // Every row failed: said in words of its own, not as "0 of 1 rows done".
    expect(stderr).toMatch(/Imported nothing from .*: every one of its 1 rows failed \(results in .*\), in/);
    expect(status).toBe(3);
    const [row] = await readCsvFile(out);
    expect(row?.['errorCode']).toBe('invalid_field');
    expect(row?.['errorMessage']).toContain(
      `"Class Z" is not a share class of this SPV; use one of ${shareClassSlug} ("Class A")`,
    );
    expect(requestsTo(env.fake, new RegExp(`^/v1/spvs/${spvSlug}/subscriptions$`))).toHaveLength(0);
  });
});
