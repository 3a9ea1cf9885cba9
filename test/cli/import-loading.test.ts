import { describe, expect, it } from 'vitest';
import { runScript } from './cli-process.js';

/** Every module that importing `file` (repository-relative) resolves, read in a fresh process. */
async function modulesLoadedBy(file: string): Promise<string[]> {
  const { status, stdout, stderr } = await runScript('test/cli/modules-loaded-by.ts', [file]);
  expect(stderr).toBe('');
  expect(status).toBe(0);
  return JSON.parse(stdout) as string[];
}

const importParts = (modules: string[]) =>
  modules.filter((path) => path.includes('node_modules/csv-parse/') || path.startsWith('src/cli/import/'));

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

  it('the import command itself loads csv-parse (the check above can see it)', async () => {
    expect(importParts(await modulesLoadedBy('src/cli/import/run-import.ts'))).toEqual(
      expect.arrayContaining([
        'src/cli/import/read-csv.ts',
        expect.stringMatching(/^node_modules\/csv-parse\//),
      ]),
    );
  });
});
