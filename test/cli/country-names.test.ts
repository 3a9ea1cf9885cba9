import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedRow, checkedRows } from '../../src/cli/import/checked-rows.js';
import { investorsImport } from '../../src/cli/import/investors-import.js';

// Country names as exports in six languages write them, read through the import's row pipeline.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pe-countries-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function countries(names: string[]): Promise<CheckedRow[]> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  const lines = names.map((name, i) => `i-${i};"${name}"`);
  await writeFile(file, `Investor ID;Country\n${lines.join('\n')}\n`);
  const rows: CheckedRow[] = [];
  for await (const batch of checkedRows({ kind: investorsImport(), file, delimiter: undefined, maps: [] })) {
    rows.push(...batch);
  }
  return rows;
}

const codes = async (names: string[]) =>
  (await countries(names)).map((row) => row.input?.['countryOfResidence'] ?? row.problems?.[0]?.reason);

describe('country names', () => {
  it.each([
    ['English', ['Germany', 'United Kingdom', 'United States', 'Belgium', 'Switzerland', 'Netherlands']],
    ['French', ['Allemagne', 'Royaume-Uni', 'États-Unis', 'Belgique', 'Suisse', 'Pays-Bas']],
    [
      'German',
      ['Deutschland', 'Vereinigtes Königreich', 'Vereinigte Staaten', 'Belgien', 'Schweiz', 'Niederlande'],
    ],
    ['Spanish', ['Alemania', 'Reino Unido', 'Estados Unidos', 'Bélgica', 'Suiza', 'Países Bajos']],
    ['Italian', ['Germania', 'Regno Unito', 'Stati Uniti', 'Belgio', 'Svizzera', 'Paesi Bassi']],
    ['Dutch', ['Duitsland', 'Verenigd Koninkrijk', 'Verenigde Staten', 'België', 'Zwitserland', 'Nederland']],
  ])('in %s', async (_language, names) => {
    expect(await codes(names)).toEqual(['DE', 'GB', 'US', 'BE', 'CH', 'NL']);
  });

  it('in any case, with or without accents, and as alpha-2 or alpha-3 codes', async () => {
    expect(await codes(['ALLEMAGNE', 'etats-unis', 'österreich', 'Belgie', 'fr', 'DEU', 'che'])).toEqual([
      'DE',
      'US',
      'AT',
      'BE',
      'FR',
      'DE',
      'CH',
    ]);
  });

  it('the short forms exports hold: UK, England, Scotland, Wales, USA, U.S.', async () => {
    expect(
      await codes(['UK', 'England', 'Scotland', 'Wales', 'Northern Ireland', 'USA', 'U.S.', 'U.S.A.']),
    ).toEqual(['GB', 'GB', 'GB', 'GB', 'GB', 'US', 'US', 'US']);
  });

  it('an unknown name gets the same reason on every row, so repeated ones group', async () => {
    const rows = await countries(['Narnia', 'Atlantis', 'Narnia']);
    const reasons = rows.map((row) => row.problems?.map(({ column, reason }) => `${column}: ${reason}`));
    expect(reasons[0]).toEqual([
      'Country: country "Narnia" not recognised (names in English, French, German, Spanish, Italian or Dutch, or ISO codes); write its two-letter ISO code (DE)',
    ]);
    expect(reasons[2]).toEqual(reasons[0]);
    expect(reasons[1]).not.toEqual(reasons[0]);
  });
});
