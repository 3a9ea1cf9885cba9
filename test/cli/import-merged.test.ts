import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';
import { IMPORT_TIMEOUT_MS, type ImportFake, newPartner, startImportFake } from './import-fake.js';

// Issue 49's two halves together: a file read as exported (cli-read) through the import's flow and
// results file (cli-flow).
let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake({ seed: { spvs: [{ currency: 'EUR' }] } });
});
afterAll(() => env.close());

/** Excel's "Unicode Text": UTF-16 LE with a BOM, TAB separated. */
const unicodeText = (lines: string[]) =>
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf16le')]);

describe('an export as saved, through the whole import', { timeout: IMPORT_TIMEOUT_MS }, () => {
  it("a UTF-16 TAB file's CSV results use TAB, the delimiter the reader read it with", async () => {
    const partner = await newPartner(env);
    const input = join(env.dir, `unicode-${partner.clientId}.txt`);
    await writeFile(
      input,
      unicodeText([
        'Investor ID\tPrénom\tNom\tCourriel\tPays\tDate de naissance',
        'inv-1\tChloé\tDupont\tchloe@example.fr\tFrance\t31/12/1980',
        'inv-2\tJürgen\tMüller\tjuergen@example.de\tAllemagne\t01/02/1975',
      ]),
    );
    const out = join(env.dir, `unicode-${partner.clientId}-results.csv`);
    const { status, stderr } = await runCli(['import', 'investors', input, '--out', out, '--quiet'], {
      env: partner.env,
    });
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const text = (await readFile(out)).toString('utf8');
    const [header, first] = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe(
      'line\tInvestor ID\tPrénom\tNom\tCourriel\tPays\tDate de naissance\tstatus\tservicePersonId\terrorCode\terrorField\terrorMessage\tretryable',
    );
    expect(first?.split('\t').slice(0, 8)).toEqual([
      '2',
      'inv-1',
      'Chloé',
      'Dupont',
      'chloe@example.fr',
      'France',
      '31/12/1980',
      'created',
    ]);
  });

  it('--with-investors and --id-from email: both steps take the id from the e-mail column', async () => {
    const partner = await newPartner(env);
    const eur = env.fake.admin.snapshot().spvs.find((spv) => spv.clientId === partner.clientId)!;
    const input = join(env.dir, `noid-${partner.clientId}.csv`);
    await writeFile(
      input,
      [
        'Prénom;Nom;Courriel;Pays;Date de naissance;Montant;Votre référence',
        'Ada;Lovelace;ada@example.com;Royaume-Uni;31/12/1980;25.000,00;ref-1',
        'Bob;Martin;bob@example.com;Belgique;01/02/1975;1.000,50;ref-2',
        '',
      ].join('\n'),
    );
    const args = ['import', 'subscriptions', eur.slug, input, '--with-investors', '--id-from', 'email'];
    const flags = ['--currency', 'EUR', '--share-class', 'Class A', '--quiet'];
    const { status, stderr } = await runCli([...args, ...flags], { env: partner.env });
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const snapshot = env.fake.admin.snapshot();
    const persons = snapshot.persons.filter((person) => person.clientId === partner.clientId);
    expect(persons.map((person) => person.partnerInvestorId)).toEqual([
      expect.stringMatching(/^email-[0-9a-f]{24}$/),
      expect.stringMatching(/^email-[0-9a-f]{24}$/),
    ]);
    const made = snapshot.subscriptions.filter((subscription) => subscription.spvSlug === eur.slug);
    expect(made.map((s) => [s.partnerSubscriptionId, s.personId, s.lumpSum.value])).toEqual([
      ['ref-1', persons[0]?.id, '25000.00'],
      ['ref-2', persons[1]?.id, '1000.50'],
    ]);
  });
});
