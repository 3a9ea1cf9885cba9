import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedRow, checkedRows } from '../../src/cli/import/checked-rows.js';
import { HEADER_NAMES, type HeaderLanguage, headerKey } from '../../src/cli/import/header-names.js';
import { investorsImport } from '../../src/cli/import/investors-import.js';
import { subscriptionsImport } from '../../src/cli/import/subscriptions-import.js';

// Headers as exports in six languages write them, read with no --map: the row each file gives.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pe-headers-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function read(content: string, kind: 'investors' | 'subscriptions'): Promise<CheckedRow[]> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  await writeFile(file, content);
  const rows: CheckedRow[] = [];
  const importKind = kind === 'investors' ? investorsImport() : subscriptionsImport('spv_1', undefined);
  for await (const batch of checkedRows({ kind: importKind, file, delimiter: undefined, maps: [] })) {
    rows.push(...batch);
  }
  return rows;
}

const INVESTOR = {
  partnerInvestorId: 'inv-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1980-12-31',
  countryOfResidence: 'DE',
};
const SUBSCRIPTION = {
  servicePersonId: 'p_1',
  shareClassSlug: 'class-a',
  'lumpSum.currency': 'EUR',
  'lumpSum.value': '25000.00',
  partnerSubscriptionId: 'sub-1',
};
const LANGUAGES: HeaderLanguage[] = ['en', 'fr', 'de', 'es', 'it', 'nl'];

/** A `;` file whose header names every field of `values` in `language`, by each of its names in turn. */
function fileIn(language: HeaderLanguage, values: Record<string, string>, pick: number): string {
  const fields = Object.keys(values);
  const header = fields.map((field) => {
    const names = HEADER_NAMES[field]?.[language] ?? [];
    return names[pick % names.length] ?? field;
  });
  return `${header.join(';')}\n${Object.values(values).join(';')}\n`;
}

describe.each(LANGUAGES)('headers in %s', (language) => {
  it('names every investor field', async () => {
    for (let pick = 0; pick < 7; pick += 1) {
      const rows = await read(fileIn(language, INVESTOR, pick), 'investors');
      expect(rows[0]?.input).toEqual(INVESTOR);
    }
  });

  it('names every subscription field', async () => {
    for (let pick = 0; pick < 7; pick += 1) {
      const rows = await read(fileIn(language, SUBSCRIPTION, pick), 'subscriptions');
      expect(rows[0]?.input).toEqual({
        servicePersonId: 'p_1',
        shareClassSlug: 'class-a',
        lumpSum: { currency: 'EUR', value: '25000.00' },
        partnerSubscriptionId: 'sub-1',
      });
    }
  });
});

describe('the header table', () => {
  it('has names in every language for every field, and no name claimed by two fields', () => {
    const owner = new Map<string, string>();
    for (const [field, languages] of Object.entries(HEADER_NAMES)) {
      for (const language of LANGUAGES) {
        const names = languages[language];
        expect(names.length, `${field} in ${language}`).toBeGreaterThan(0);
        for (const name of names) {
          const key = headerKey(name);
          expect(owner.get(key) ?? field, `'${name}'`).toBe(field);
          owner.set(key, field);
        }
      }
    }
  });

  it.each([
    ['Prénom;Nom;Courriel;Pays de résidence;Date de naissance;ID investisseur'],
    ['Vorname;Nachname;E-Mail;Land;Geburtsdatum;Investor-ID'],
    ['First Name,Last Name,Email Address,Country,DOB,Investor ID'],
    ['Nombre;Apellidos;Correo electrónico;País;Fecha de nacimiento;ID inversor'],
    ['Nome;Cognome;Indirizzo email;Paese;Data di nascita;Codice investitore'],
    ['Voornaam;Achternaam;E-mailadres;Land;Geboortedatum;Klantnummer'],
  ])('reads the exports of issue 49 as written: %s', async (header) => {
    const separator = header.includes(';') ? ';' : ',';
    const rows = await read(
      `${header}\n${['Ada', 'Lovelace', 'ada@example.com', 'DE', '1980-12-31', 'inv-1'].join(separator)}\n`,
      'investors',
    );
    expect(rows[0]?.input).toEqual(INVESTOR);
  });

  it('drops a currency in brackets from a header: `Commitment ($)`, `Betrag (EUR)`', async () => {
    for (const amount of ['Commitment ($)', 'Betrag (EUR)', 'Montant souscrit [€]']) {
      const rows = await read(
        `Person ID;Share class;Currency;${amount}\np_1;class-a;EUR;100\n`,
        'subscriptions',
      );
      expect(rows[0]?.input).toMatchObject({ lumpSum: { currency: 'EUR', value: '100' } });
    }
  });
});
