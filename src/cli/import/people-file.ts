import { ImportInputError } from './import-exit.js';
import { readCsv } from './read-csv.js';

/**
 * `partnerInvestorId → servicePersonId` from an `import investors --out` file (any CSV with those two
 * columns), rows without a person id left out. Held in memory: one entry per investor of that file.
 */
export async function readPeople(path: string): Promise<Map<string, string>> {
  const people = new Map<string, string>();
  let idColumn = -1;
  let personColumn = -1;
  for await (const { cells } of readCsv(path, undefined)) {
    if (idColumn === -1) {
      const header = cells.map((cell) => cell.trim().toLowerCase());
      idColumn = header.indexOf('partnerinvestorid');
      personColumn = header.indexOf('servicepersonid');
      if (idColumn === -1 || personColumn === -1) {
        throw new ImportInputError(
          `--people ${path}: expected columns partnerInvestorId and servicePersonId`,
        );
      }
      continue;
    }
    const id = cells[idColumn];
    const person = cells[personColumn];
    if (id !== undefined && id !== '' && person !== undefined && person !== '') people.set(id, person);
  }
  if (idColumn === -1) throw new ImportInputError(`--people ${path}: the file is empty`);
  return people;
}
