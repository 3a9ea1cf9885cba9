import { spawn } from 'node:child_process';
import { link, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliSecrets } from '../../src/cli/cli-secrets.js';
import type { CheckedRow } from '../../src/cli/import/checked-rows.js';
import type { ColumnMap } from '../../src/cli/import/columns.js';
import { investorsImport } from '../../src/cli/import/investors-import.js';
import {
  checkOutPath,
  isWorkbookPath,
  ResultsFile,
  resultCells,
  resultsLayout,
  unneutralised,
} from '../../src/cli/import/results-file.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { readWorkbook } from './read-workbook.js';

// The results writer in process (the CLI tests spawn it, where a mutant is never seen): the bytes a person
// opening the file in a spreadsheet gets.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'results-file-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let files = 0;
function fileIn(name: string): string {
  files += 1;
  return join(dir, `${files}-${name}`);
}

/** The bytes of a CSV results file written with `rows` after a `line,value` header. */
async function csvOf(rows: string[][], delimiter?: string): Promise<string> {
  const path = fileIn('out.csv');
  const file = await ResultsFile.create(
    path,
    ['line', 'value'],
    delimiter === undefined ? undefined : { delimiter },
  );
  await file.write(rows);
  await file.close();
  return readFile(path, 'utf8');
}

/** The one cell `value` becomes in a CSV line. */
async function cellOf(value: string): Promise<string> {
  const text = await csvOf([[value]]);
  return text.slice('\uFEFFline,value\r\n'.length, -'\r\n'.length);
}

describe('a cell a spreadsheet would run as a formula', () => {
  const neutralised = [
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\ry', `"'\ry"`],
    ["'kept", "''kept"],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    ['\uFF0B1', "'\uFF0B1"],
    ['\uFF0D1', "'\uFF0D1"],
    ['\uFF20A1', "'\uFF20A1"],
    [' =1', "' =1"],
    ['   +1', "'   +1"],
    ['\u00A0-1', "'\u00A0-1"],
    ['\u200B@A1', "'\u200B@A1"],
    ['\u2060=1', "'\u2060=1"],
    ['\uFEFF=1', "'\uFEFF=1"],
    ['\n=1', `"'\n=1"`],
    ['\u200B\uFF1D1', "'\u200B\uFF1D1"],
    ['\u200B\uFF0B1', "'\u200B\uFF0B1"],
    ['\u200B\uFF0D1', "'\u200B\uFF0D1"],
    ['\u200B\uFF20A1', "'\u200B\uFF20A1"],
  ] as const;

  it.each(neutralised)('%j is written as %j, and reads back as it was', async (value, written) => {
    expect(await cellOf(value)).toBe(written);
    expect(unneutralised(`'${value}`)).toBe(value);
  });

  const plain = ['a=b', 'x-1', 'name@example.com', '\u200Bx', '1+1', 'Zoë', "a'b"];
  it.each(plain)('%j is written as is and read back as is', async (value) => {
    expect(await cellOf(value)).toBe(value);
    expect(unneutralised(value)).toBe(value);
  });

  it("gives a ' that neutralised nothing back as it is", () => {
    expect(unneutralised("'x")).toBe("'x");
    expect(unneutralised("' x")).toBe("' x");
    expect(unneutralised("''x")).toBe("'x");
    expect(unneutralised('=x')).toBe('=x');
    expect(unneutralised('')).toBe('');
  });
});

describe('a CSV results file', () => {
  it('starts with a UTF-8 BOM and ends every line with CRLF', async () => {
    const bytes = await readFile(
      await (async () => {
        const path = fileIn('bom.csv');
        const file = await ResultsFile.create(path, ['line', 'name']);
        await file.write([
          ['2', 'Zoë'],
          ['3', 'Åsa'],
        ]);
        await file.close();
        return path;
      })(),
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toBe('\uFEFFline,name\r\n2,Zoë\r\n3,Åsa\r\n');
  });

  it("uses the input's delimiter, quoting a cell that holds it", async () => {
    expect(
      await csvOf(
        [
          ['2', 'a;b'],
          ['3', 'a,b'],
        ],
        ';',
      ),
    ).toBe('\uFEFFline;value\r\n2;"a;b"\r\n3;a,b\r\n');
    expect(
      await csvOf([
        ['2', 'a;b'],
        ['3', 'a,b'],
      ]),
    ).toBe('\uFEFFline,value\r\n2,a;b\r\n3,"a,b"\r\n');
  });

  it('quotes a quote, a line break and edge spaces, and nothing else', async () => {
    expect(await cellOf('say "hi"')).toBe('"say ""hi"""');
    expect(await cellOf('a\nb')).toBe('"a\nb"');
    expect(await cellOf('a\rb')).toBe('"a\rb"');
    expect(await cellOf(' a')).toBe('" a"');
    expect(await cellOf('a ')).toBe('"a "');
    expect(await cellOf('a b')).toBe('a b');
    expect(await cellOf('\u00A0x')).toBe('"\u00A0x"');
    expect(await cellOf('')).toBe('');
  });

  it('is written as a new 0600 file, renamed over the path once closed, the temporary file gone', async () => {
    const path = fileIn('mode.csv');
    await writeFile(path, 'old\n', { mode: 0o644 });
    const file = await ResultsFile.create(path, ['line']);
    await file.write([['2']]);
    const during = await readdir(dir);
    expect(during.filter((name) => name.includes('mode.csv') && name.endsWith('.tmp'))).toHaveLength(1);
    expect(await readFile(path, 'utf8')).toBe('old\n');
    await file.close();
    expect(await readFile(path, 'utf8')).toBe('\uFEFFline\r\n2\r\n');
    expect((await lstat(path)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((name) => name.includes('mode.csv') && name !== path)).toEqual([
      path.slice(dir.length + 1),
    ]);
  });

  it('when it cannot be put at its path: the error, and no temporary file left', async () => {
    const path = fileIn('taken');
    const file = await ResultsFile.create(path, ['line']);
    // A non-empty directory where the file should go: the rename fails.
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'x');
    await expect(file.close()).rejects.toThrow();
    expect((await readdir(dir)).filter((name) => name.includes('taken') && name.endsWith('.tmp'))).toEqual(
      [],
    );
  });

  it('removes the temporary files a dead run left beside it, keeps a live run’s and other files’', async () => {
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.once('exit', () => resolve(child.pid ?? 0));
    });
    const sub = join(dir, `leftovers-${files++}`);
    await mkdir(sub);
    const path = join(sub, 'kept.csv');
    const left = `.kept.csv.${dead}-0123456789ab.tmp`;
    const live = `.kept.csv.${process.pid}-ba9876543210.tmp`;
    const other = `.other.csv.${dead}-0123456789ab.tmp`;
    const odd = `.kept.csv.${dead}-0123456789.tmp`;
    for (const name of [left, live, other, odd]) await writeFile(join(sub, name), 'half a run');
    const file = await ResultsFile.create(path, ['line']);
    await file.close();
    expect((await readdir(sub)).sort()).toEqual([live, odd, other, 'kept.csv'].sort());
  });
});

describe('a CSV results file that cannot be written', () => {
  it('in a folder that does not exist: the error of opening the file', async () => {
    const path = join(dir, `no-such-folder-${files++}`, 'out.csv');
    await expect(ResultsFile.create(path, ['line'])).rejects.toMatchObject({
      code: 'ENOENT',
      syscall: 'open',
    });
  });

  it("when its temporary file was removed under it: the rename's error, not the clean-up's", async () => {
    const sub = join(dir, `gone-${files++}`);
    await mkdir(sub);
    const file = await ResultsFile.create(join(sub, 'out.csv'), ['line']);
    for (const name of await readdir(sub)) await rm(join(sub, name));
    await expect(file.close()).rejects.toMatchObject({ code: 'ENOENT', syscall: 'rename' });
    expect(await readdir(sub)).toEqual([]);
  });

  it("keeps the temporary file of a run it may not signal (another user's: EPERM), as alive", async () => {
    const sub = join(dir, `eperm-${files++}`);
    await mkdir(sub);
    const pid = 99_999_999;
    const theirs = `.out.csv.${pid}-0123456789ab.tmp`;
    await writeFile(join(sub, theirs), 'their run');
    const kill = process.kill.bind(process);
    const spy = vi.spyOn(process, 'kill').mockImplementation((target, signal) => {
      if (target !== pid) return kill(target, signal);
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
    });
    try {
      const file = await ResultsFile.create(join(sub, 'out.csv'), ['line']);
      await file.close();
    } finally {
      spy.mockRestore();
    }
    expect((await readdir(sub)).sort()).toEqual([theirs, 'out.csv'].sort());
  });
});

describe('an .xlsx results file', () => {
  it('is a workbook of text cells with a bold, frozen header, 0600, no temporary file left', async () => {
    const path = fileIn('out.xlsx');
    const file = await ResultsFile.create(path, ['line', 'partnerInvestorId', 'amount']);
    await file.write([['2', '=1+1', '0012']]);
    await file.write([['3', 'Zoë', '-5']]);
    await file.close();
    expect(await readWorkbook(path)).toEqual([
      ['line', 'partnerInvestorId', 'amount'],
      ['2', '=1+1', '0012'],
      ['3', 'Zoë', '-5'],
    ]);
    const bytes = await readFile(path);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const files = unzipSync(new Uint8Array(bytes));
    const xml = (name: string) => strFromU8(files[name] ?? new Uint8Array());
    expect(xml('xl/workbook.xml')).toContain('name="Results"');
    const sheet = xml('xl/worksheets/sheet1.xml');
    // No formula, and no cell a number: "0012" stays as typed.
    expect(sheet).not.toContain('<f>');
    for (const c of sheet.matchAll(/<c [^>]*>/g)) expect(c[0]).toMatch(/t="(s|inlineStr|str)"/);
    expect(sheet).toMatch(/<pane [^>]*ySplit="1"/);
    // The header's cells have a style of their own (bold), the others not.
    const styles = [...sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) =>
      [...(row[1] ?? '').matchAll(/<c [^>]*?s="(\d+)"/g)].map((c) => c[1]),
    );
    expect(styles[0]).toHaveLength(3);
    expect(styles[1]?.some((s) => s === styles[0]?.[0])).toBe(false);
    expect(xml('xl/styles.xml')).toMatch(/<b\s*\/>/);
    expect((await lstat(path)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((name) => name.includes('out.xlsx') && name.endsWith('.tmp'))).toEqual(
      [],
    );
  });

  it('is chosen by the .xlsx name, in any case', () => {
    expect(isWorkbookPath('a/results.xlsx')).toBe(true);
    expect(isWorkbookPath('RESULTS.XLSX')).toBe(true);
    expect(isWorkbookPath('results.csv')).toBe(false);
    expect(isWorkbookPath('xlsx')).toBe(false);
    expect(isWorkbookPath('results.xlsx.csv')).toBe(false);
  });
});

describe('the results columns and cells', () => {
  const kind = investorsImport();
  const columns = (header: string[], fields: (string | undefined)[]) =>
    ({ header, fields }) as unknown as ColumnMap;
  const row = (cells: string[], echo: string[]): CheckedRow => ({ line: 7, cells, echo });

  it("repeat the input's named columns, then the ids it lacks, then the outcome", () => {
    const layout = resultsLayout(
      kind,
      columns(['email', '', 'name', ''], ['email', undefined, 'name', undefined]),
    );
    expect(layout.inputColumns).toEqual([0, 2]);
    expect(layout.echoIndexes).toEqual([0]);
    expect(layout.header).toEqual([
      'line',
      'email',
      'name',
      'partnerInvestorId',
      'status',
      kind.idColumn,
      'errorCode',
      'errorField',
      'errorMessage',
      'retryable',
    ]);
    expect(kind.idColumn).toBe('servicePersonId');

    const withId = resultsLayout(kind, columns(['Investor ID', 'email'], ['partnerInvestorId', 'email']));
    expect(withId.echoIndexes).toEqual([]);
    expect(withId.header.slice(0, 4)).toEqual(['line', 'Investor ID', 'email', 'status']);
  });

  it('a created row: its line, cells, echoed id and id; no error', () => {
    const layout = resultsLayout(kind, columns(['email', '', 'name'], ['email', undefined, 'name']));
    expect(
      resultCells(layout, row(['a@example.com', 'x', 'Zoë'], ['inv-1']), { status: 'created', id: 'per_1' }),
    ).toEqual(['7', 'a@example.com', 'Zoë', 'inv-1', 'created', 'per_1', '', '', '', '']);
    // A short row and a missing echo: empty cells, never "undefined".
    expect(resultCells(layout, row(['a@example.com'], []), { status: 'failed' })).toEqual([
      '7',
      'a@example.com',
      '',
      '',
      'failed',
      '',
      '',
      '',
      '',
      '',
    ]);
  });

  it("a failed row: the error's code, field, message with secrets redacted, and whether to retry", () => {
    const secret = 'sk_results_file_secret_1234567890';
    cliSecrets.add(secret);
    const layout = resultsLayout(kind, columns(['email'], ['email']));
    const cells = resultCells(layout, row(['a@example.com'], ['inv-1']), {
      status: 'failed',
      error: { code: 'validation_error', field: 'email', message: `bad ${secret} here`, retryable: false },
    });
    expect(cells.slice(0, 6)).toEqual(['7', 'a@example.com', 'inv-1', 'failed', '', 'validation_error']);
    expect(cells[6]).toBe('email');
    expect(cells[7]).not.toContain(secret);
    expect(cells[7]).toMatch(/^bad .+ here$/);
    expect(cells[8]).toBe('false');
    const retry = resultCells(layout, row(['a@example.com'], ['inv-1']), {
      status: 'failed',
      error: { code: 'rate_limited', field: null, message: 'later', retryable: true },
    });
    expect(retry.slice(5)).toEqual(['rate_limited', '', 'later', 'true']);
  });
});

describe('--out is refused before anything is read or sent', () => {
  it('a new path, or an existing file that is not an input: accepted', async () => {
    const input = fileIn('input.csv');
    await writeFile(input, 'a\n');
    const other = fileIn('other.csv');
    await writeFile(other, 'b\n');
    await expect(checkOutPath(fileIn('new.csv'), [input])).resolves.toBeUndefined();
    await expect(checkOutPath(other, [input, undefined, fileIn('missing.csv')])).resolves.toBeUndefined();
  });

  it('a symbolic link, even to a file that is no input', async () => {
    const target = fileIn('precious.txt');
    await writeFile(target, 'precious\n');
    const linked = fileIn('link.csv');
    await symlink(target, linked);
    const refusal = checkOutPath(linked, []);
    await expect(refusal).rejects.toThrow(UsageError);
    await expect(checkOutPath(linked, [])).rejects.toThrow(
      `--out ${linked} is a symbolic link: name the file itself`,
    );
    const dangling = fileIn('dangling.csv');
    await symlink(fileIn('nowhere'), dangling);
    await expect(checkOutPath(dangling, [])).rejects.toThrow(/is a symbolic link/);
  });

  it('a directory', async () => {
    const folder = fileIn('folder');
    await mkdir(folder);
    await expect(checkOutPath(folder, [])).rejects.toThrow(
      `--out ${folder} exists and is not a regular file`,
    );
  });

  it('the input or the --people file, under its name or a hard link', async () => {
    const input = fileIn('in.csv');
    await writeFile(input, 'a\n');
    const people = fileIn('people.csv');
    await writeFile(people, 'p\n');
    const hard = fileIn('hard.csv');
    await link(people, hard);
    await expect(checkOutPath(input, [input, people])).rejects.toThrow(
      `--out ${input} is the input file ${input}: name another file for the results`,
    );
    await expect(checkOutPath(hard, [input, undefined, people])).rejects.toThrow(UsageError);
    await expect(checkOutPath(hard, [undefined, input, people])).rejects.toThrow(
      `--out ${hard} is the input file ${people}`,
    );
  });
});
