import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedRow, checkedRows } from '../../src/cli/import/checked-rows.js';
import { investorsImport } from '../../src/cli/import/investors-import.js';
import { subscriptionsImport } from '../../src/cli/import/subscriptions-import.js';
import { runCli } from './cli-process.js';
import {
  IMPORT_TIMEOUT_MS,
  type ImportFake,
  newPartner,
  readCsvFile,
  startImportFake,
} from './import-fake.js';

// A file with no investor id column (issue 49): --id-from email derives partnerInvestorId from the address.
let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake();
});
afterAll(() => env.close());

let files = 0;
async function saved(content: string): Promise<string> {
  files += 1;
  const path = join(env.dir, `id-from-${files}.csv`);
  await writeFile(path, content);
  return path;
}

async function read(content: string, idFrom?: 'email'): Promise<CheckedRow[]> {
  const file = await saved(content);
  const rows: CheckedRow[] = [];
  for await (const batch of checkedRows({
    kind: investorsImport(),
    file,
    delimiter: undefined,
    maps: [],
    idFrom,
  })) {
    rows.push(...batch);
  }
  return rows;
}

/** The documented recipe (docs/cli.md), computed here on its own. */
const documented = (address: string) =>
  `email-${createHash('sha256').update(address.trim().toLowerCase()).digest('hex').slice(0, 24)}`;

const FRENCH = 'Prénom;Nom;Courriel;Pays\n';

describe('--id-from email', () => {
  it('derives the id from the address as docs/cli.md says: case and spaces aside, one address one id', async () => {
    const rows = await read(
      `${FRENCH}Ada;Lovelace;ada@example.com;FR\nAda;Lovelace; ADA@Example.com ;FR\nBob;Martin;bob@example.com;FR\n`,
      'email',
    );
    const ids = rows.map((row) => row.input?.['partnerInvestorId']);
    expect(ids).toEqual([
      documented('ada@example.com'),
      documented('ada@example.com'),
      documented('bob@example.com'),
    ]);
    expect(ids[0]).toBe('email-b5fc85e55755f9e0d030a10a');
    expect(rows[0]?.input).toMatchObject({
      email: 'ada@example.com',
      firstName: 'Ada',
      countryOfResidence: 'FR',
    });
  });

  it('a row with no address gets no id, and says which column it needed', async () => {
    const rows = await read(`${FRENCH}Ada;Lovelace;;FR\n`, 'email');
    expect(rows[0]?.problems).toEqual([{ column: 'Courriel', reason: 'empty, and required' }]);
  });

  it('without it, a file with no id column names the flag; with it, a file with an id column or no e-mail is refused', async () => {
    await expect(read(`${FRENCH}Ada;Lovelace;ada@example.com;FR\n`)).rejects.toThrow(
      "no column for partnerInvestorId (required): name one with --map '<column>=partnerInvestorId', or derive it from 'Courriel' with --id-from email",
    );
    await expect(read('Investor ID;E-mail\ni-1;a@example.com\n', 'email')).rejects.toThrow(
      "the file has an investor id column ('Investor ID'): drop --id-from email, or skip that column with --map 'Investor ID='",
    );
    await expect(read('Prénom;Nom\nAda;Lovelace\n', 'email')).rejects.toThrow(
      "--id-from email: the header has no e-mail column ('Prénom', 'Nom')",
    );
  });

  it('a subscriptions file finds each investor by the id its address gives, through --people', async () => {
    const file = await saved('E-mail;Share class;Currency;Amount\nADA@example.com;class-a;EUR;100\n');
    const people = new Map([[documented('ada@example.com'), 'p_ada']]);
    const rows: CheckedRow[] = [];
    const kind = subscriptionsImport('spv_1', people);
    for await (const batch of checkedRows({ kind, file, delimiter: undefined, maps: [], idFrom: 'email' })) {
      rows.push(...batch);
    }
    // The address itself is not a subscription field: it is not sent.
    expect(rows[0]?.input).toEqual({
      servicePersonId: 'p_ada',
      shareClassSlug: 'class-a',
      lumpSum: { currency: 'EUR', value: '100' },
    });
  });

  it(
    'imports a file without ids, and a re-run (even after the keys expire) creates nobody twice',
    async () => {
      const partner = await newPartner(env);
      const path = await saved(
        'Prénom;Nom;Courriel;Pays de résidence;Date de naissance\nAda;Lovelace;ada@example.com;France;31/12/1980\nBob;Martin;bob@example.com;Belgique;01/02/1975\n',
      );
      const out = join(env.dir, 'id-from-results.csv');
      const args = ['import', 'investors', path, '--id-from', 'email', '--quiet'];
      const first = await runCli([...args, '--out', out], { env: partner.env });
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      expect((await readCsvFile(out)).map((row) => [row['partnerInvestorId'], row['status']])).toEqual([
        [documented('ada@example.com'), 'created'],
        [documented('bob@example.com'), 'created'],
      ]);
      // Another chunk size: other idempotency keys, as after the 24 hours; the ids still match.
      const again = await runCli([...args, '--chunk-size', '1', '--out', out], { env: partner.env });
      expect(again.stderr).toBe('');
      expect((await readCsvFile(out)).map((row) => [row['partnerInvestorId'], row['status']])).toEqual([
        [documented('ada@example.com'), 'existing'],
        [documented('bob@example.com'), 'existing'],
      ]);
      expect(again.status).toBe(0);
      const persons = env.fake.admin.snapshot().persons.filter((p) => p.clientId === partner.clientId);
      expect(persons.map((p) => [p.partnerInvestorId, p.email, p.countryOfResidence, p.dateOfBirth])).toEqual(
        [
          [documented('ada@example.com'), 'ada@example.com', 'FR', '1980-12-31'],
          [documented('bob@example.com'), 'bob@example.com', 'BE', '1975-02-01'],
        ],
      );
    },
    IMPORT_TIMEOUT_MS,
  );
});
