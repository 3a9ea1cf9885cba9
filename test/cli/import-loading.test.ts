import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScript } from './cli-process.js';
import { xlsxBytes } from './xlsx-bytes.js';

/** Every module that importing `file` (repository-relative) resolves, read in a fresh process. */
async function modulesLoadedBy(file: string): Promise<string[]> {
  const { status, stdout, stderr } = await runScript('test/cli/modules-loaded-by.ts', [file]);
  expect(stderr).toBe('');
  expect(status).toBe(0);
  return JSON.parse(stdout) as string[];
}

const importParts = (modules: string[]) =>
  modules.filter(
    (path) =>
      path.includes('node_modules/csv-parse/') ||
      path.includes('node_modules/read-excel-file/') ||
      path.includes('node_modules/write-excel-file/') ||
      path.includes('node_modules/i18n-iso-countries/') ||
      path.startsWith('src/cli/import/'),
  );
const workbookReader = (modules: string[]) =>
  modules.filter((path) => path.includes('node_modules/read-excel-file/') || path.endsWith('read-xlsx.ts'));

/** The modules reading `bytes` (saved as `name`) through the import's reader loaded, in a fresh process. */
async function modulesReading(name: string, bytes: Buffer): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'pe-loading-'));
  try {
    await writeFile(join(dir, name), bytes);
    const { status, stdout, stderr } = await runScript('test/cli/modules-read-by.ts', [join(dir, name)]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    return JSON.parse(stdout) as string[];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the import command loads only when it runs', () => {
  it('importing the SDK loads neither the CSV parser nor the import command', async () => {
    const loaded = await modulesLoadedBy('src/index.ts');
    expect(loaded).toContain('src/client.ts'); // the hook sees the graph (a blind one would pass anything)
    expect(importParts(loaded)).toEqual([]);
  });

  it("the CLI's command table lists `import` without loading it", async () => {
    const loaded = await modulesLoadedBy('src/cli/main.ts');
    expect(loaded).toContain('src/cli/commands/import.ts');
    expect(importParts(loaded)).toEqual([]);
  });

  it('the import command itself loads csv-parse (the check above can see it), not the workbook writer', async () => {
    const loaded = await modulesLoadedBy('src/cli/import/run-import.ts');
    expect(loaded.filter((path) => path.includes('node_modules/write-excel-file/'))).toEqual([]);
    expect(importParts(loaded)).toEqual(
      expect.arrayContaining([
        'src/cli/import/read-csv.ts',
        expect.stringMatching(/^node_modules\/csv-parse\//),
      ]),
    );
  });

  it('the import loads read-excel-file only when it reads a workbook', async () => {
    expect(workbookReader(await modulesLoadedBy('src/cli/import/run-import.ts'))).toEqual([]);
    expect(
      workbookReader(
        await modulesReading('people.csv', Buffer.from('Investor ID,E-mail\ni-1,a@example.com\n')),
      ),
    ).toEqual([]);
    const book = xlsxBytes([{ name: 'Sheet1', rows: [['Investor ID'], ['i-1']] }]);
    expect(workbookReader(await modulesReading('people.xlsx', book))).toEqual(
      expect.arrayContaining([
        'src/cli/import/read-xlsx.ts',
        expect.stringMatching(/^node_modules\/read-excel-file\//),
      ]),
    );
  });
});
