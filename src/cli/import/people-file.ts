import { stat } from 'node:fs/promises';
import { headerKey, headerKeys } from './header-names.js';
import { ImportInputError } from './import-exit.js';
import { readCsv } from './read-csv.js';
import { unneutralised } from './results-file.js';

/**
 * Largest `--people` file read (128 MiB, over a million investors): the map is held in memory, so the
 * import's heap is sized from the file, up to this.
 */
export const MAX_PEOPLE_FILE_BYTES = 128 * 1024 * 1024;

/**
 * `partnerInvestorId → servicePersonId` from an `import investors --out` file (any CSV with those two
 * columns), rows without a person id left out. Held in memory: one entry per investor of that file, which
 * is refused over {@link MAX_PEOPLE_FILE_BYTES}. Cells the results file neutralised (`'=…`) are read back.
 */
export async function readPeople(path: string): Promise<Map<string, string>> {
  const size = await stat(path).then(
    (stats) => stats.size,
    () => 0, // readCsv reports an unreadable file
  );
  if (size > MAX_PEOPLE_FILE_BYTES) {
    throw new ImportInputError(
      `--people ${path}: the file is over ${MAX_PEOPLE_FILE_BYTES / (1024 * 1024)} MiB; split the import by investor`,
    );
  }
  const people = new Map<string, string>();
  let idColumn = -1;
  let personColumn = -1;
  const names = headerKeys();
  for await (const records of readCsv(path, undefined)) {
    for (const { cells } of records) {
      if (idColumn === -1) {
        // The results file keeps the input's own header: "Investor ID" as well as partnerInvestorId.
        const fields = cells.map((cell) => {
          const key = headerKey(cell);
          if (key === 'servicepersonid') return 'servicePersonId';
          return key === 'partnerinvestorid' ? 'partnerInvestorId' : names.get(key);
        });
        idColumn = fields.indexOf('partnerInvestorId');
        personColumn = fields.indexOf('servicePersonId');
        if (idColumn === -1 || personColumn === -1) {
          throw new ImportInputError(
            `--people ${path}: expected columns partnerInvestorId and servicePersonId`,
          );
        }
        continue;
      }
      const id = unneutralised(cells[idColumn] ?? '').trim();
      const person = unneutralised(cells[personColumn] ?? '').trim();
      if (id !== '' && person !== '') people.set(id, person);
    }
  }
  if (idColumn === -1) throw new ImportInputError(`--people ${path}: the file is empty`);
  return people;
}
