import { link, readFile, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob } from '../../src/cli/import/import-request.js';
import { importLimits } from '../../src/cli/import/import-thread.js';
import { MAX_PEOPLE_FILE_BYTES, readPeople } from '../../src/cli/import/people-file.js';
import { readCsv } from '../../src/cli/import/read-csv.js';
import { ResultsFile } from '../../src/cli/import/results-file.js';
import { runCli } from '../cli/cli-process.js';
import {
  type ImportFake,
  INVESTOR_HEADER,
  investorLine,
  newPartner,
  startImportFake,
} from '../cli/import-fake.js';

// Security review of issue 36, findings 1, 2, 6, 7 and 11: the import's results file and its input files.

let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake();
});
afterAll(() => env.close());

const mode = async (path: string) => (await stat(path)).mode & 0o777;
let files = 0;
function fileIn(name: string): string {
  files += 1;
  return join(env.dir, `${files}-${name}`);
}

async function readAll(path: string): Promise<{ line: number; cells: string[] }[]> {
  const records = [];
  for await (const batch of readCsv(path, undefined)) records.push(...batch);
  return records;
}

describe('the results file (finding 1: formula injection; finding 7: file mode)', () => {
  const hostile = [
    '=HYPERLINK("http://evil.example","x")',
    '+1+cmd|calc',
    '-2',
    '@SUM(A1)',
    '\tx',
    '\r=1',
    "'=kept",
  ];

  it("prefixes a cell a spreadsheet would run as a formula with ', and --people reads every id back exactly", async () => {
    const path = fileIn('results.csv');
    const file = await ResultsFile.create(path, ['line', 'partnerInvestorId', 'status', 'servicePersonId']);
    await file.write(hostile.map((id, i) => [String(i + 2), id, '=status', `-person-${i}`]));
    await file.close();

    const rows = parse(await readFile(path), { columns: true }) as Record<string, string>[];
    for (const row of rows) {
      for (const value of Object.values(row)) expect(value, value).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(rows.map((row) => row['partnerInvestorId'])).toEqual(hostile.map((id) => `'${id}`));
    expect(rows[0]?.['status']).toBe("'=status");

    const people = await readPeople(path);
    // Trimmed, as the import trims every cell before sending it.
    expect([...people.entries()]).toEqual(hostile.map((id, i) => [id.trim(), `-person-${i}`]));
  });

  it('is a new 0600 file that replaces an existing one only once closed, never writing through it', async () => {
    const path = fileIn('results.csv');
    await writeFile(path, 'old results\n', { mode: 0o644 });
    const otherName = fileIn('hard-link.csv');
    await link(path, otherName);
    const file = await ResultsFile.create(path, ['line']);
    await file.write([['2']]);
    expect(await readFile(path, 'utf8')).toBe('old results\n');
    await file.close();
    expect(await readFile(path, 'utf8')).toBe('\uFEFFline\r\n2\r\n');
    expect(await mode(path)).toBe(0o600);
    expect(await readFile(otherName, 'utf8')).toBe('old results\n');
  });
});

describe('--out refuses to destroy a file (finding 2)', () => {
  let input: string;
  let partnerEnv: Record<string, string>;
  beforeAll(async () => {
    input = fileIn('investors.csv');
    await writeFile(input, `${INVESTOR_HEADER}\n${investorLine(1, 'out')}\n`);
    partnerEnv = (await newPartner(env)).env;
  });

  const refused = async (args: string[], message: RegExp) => {
    const before = env.fake.requests.length;
    const { status, stderr } = await runCli(args, { env: partnerEnv });
    expect(stderr).toMatch(message);
    expect(status).toBe(2);
    expect(env.fake.requests.length).toBe(before);
  };

  it('naming the input file, under its own name or a hard link: refused, nothing sent, the input kept', async () => {
    const original = await readFile(input, 'utf8');
    await refused(['import', 'investors', input, '--out', input], /--out .* is the input file/);
    const hardLink = fileIn('same-inode.csv');
    await link(input, hardLink);
    await refused(['import', 'investors', input, '--out', hardLink], /--out .* is the input file/);
    expect(await readFile(input, 'utf8')).toBe(original);
  });

  it('naming the --people file: refused, the mapping kept', async () => {
    const people = fileIn('people.csv');
    await writeFile(people, 'partnerInvestorId,servicePersonId\ninv-1,person-1\n');
    const subscriptions = fileIn('subscriptions.csv');
    await writeFile(subscriptions, 'partnerInvestorId,lumpSum.currency,lumpSum.value,shareClassSlug\n');
    await refused(
      ['import', 'subscriptions', 'spv-x', subscriptions, '--people', people, '--out', people],
      /--out .* is the input file/,
    );
    expect(await readFile(people, 'utf8')).toBe('partnerInvestorId,servicePersonId\ninv-1,person-1\n');
  });

  it('naming a symbolic link: refused, its target untouched', async () => {
    const target = fileIn('precious.txt');
    await writeFile(target, 'precious\n');
    const linked = fileIn('link.csv');
    await symlink(target, linked);
    await refused(['import', 'investors', input, '--out', linked], /--out .* is a symbolic link/);
    expect(await readFile(target, 'utf8')).toBe('precious\n');
  });
});

describe('input files are bounded and checked (findings 6 and 11)', () => {
  it('a record over 1 MiB is refused with its line, without reading the rest of the cell', async () => {
    const path = fileIn('huge-cell.csv');
    await writeFile(path, `${INVESTOR_HEADER}\n${investorLine(1)}\n"inv-2",${'x'.repeat(2 * 1024 * 1024)}\n`);
    await expect(readAll(path)).rejects.toThrow(/: line 3: the row is over 1 MiB/);
  });

  it('a NUL byte or bytes that are not UTF-8 in a cell are refused with their line', async () => {
    const nul = fileIn('nul.csv');
    await writeFile(
      nul,
      `${INVESTOR_HEADER}\n${investorLine(1)}\n${investorLine(2)}\ninv-3,a\0b@example.com,A,B,1985-02-28,DE\n`,
    );
    await expect(readAll(nul)).rejects.toThrow(/: line 4: a cell holds a NUL byte/);
    // The records before the bad one are handed over first (a --check lists their problems before it).
    const before: number[] = [];
    await expect(
      (async () => {
        for await (const batch of readCsv(nul, undefined)) before.push(...batch.map((record) => record.line));
      })(),
    ).rejects.toThrow(/line 4/);
    expect(before).toEqual([1, 2, 3]);
    const latin1 = fileIn('latin1.csv');
    await writeFile(
      latin1,
      Buffer.concat([
        Buffer.from(`${INVESTOR_HEADER}\ninv-1,a@example.com,J`),
        Buffer.from([0xfc]),
        Buffer.from('rgen,B,1985-02-28,DE\n'),
      ]),
    );
    await expect(readAll(latin1)).rejects.toThrow(/: line 2: a cell holds bytes that are not UTF-8/);
  });

  it('import --check reports the invalid bytes with their line and exits 4', async () => {
    const path = fileIn('check-nul.csv');
    await writeFile(
      path,
      `${INVESTOR_HEADER}\n${investorLine(1)}\ninv-2,a@example.com,A\0,B,1985-02-28,DE\n`,
    );
    const { status, stderr } = await runCli(['import', 'investors', path, '--check']);
    expect(stderr).toMatch(/line 3: a cell holds a NUL byte/);
    expect(status).toBe(4);
  });

  it('a --people file over the cap is refused unread, and the import thread heap stays bounded whatever its size', async () => {
    const people = fileIn('people-sparse.csv');
    await writeFile(people, '');
    await truncate(people, 4 * 1024 * 1024 * 1024); // 4 GiB, sparse: costs no disk
    await expect(readPeople(people)).rejects.toThrow(/--people .*: the file is over 128 MiB/);
    const job = { chunkSize: 500, concurrency: 4, people } as ImportJob;
    const limits = await importLimits(job);
    const atCap = 48 + Math.ceil((500 * 6 * 4096 + MAX_PEOPLE_FILE_BYTES * 4) / (1024 * 1024));
    expect(limits.maxOldGenerationSizeMb).toBe(atCap);
  });
});
