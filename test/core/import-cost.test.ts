import { describe, expect, it } from 'vitest';
import { runScript } from '../cli/cli-process.js';

/** What `import '@partner-equity/sdk'` loads, read in a fresh process (issue 17's cold start). */
async function modulesAtImport(): Promise<string[]> {
  const { status, stdout, stderr } = await runScript('test/helpers/modules-at-import.ts');
  expect(stderr).toBe('');
  expect(status).toBe(0);
  return JSON.parse(stdout) as string[];
}

describe('importing the SDK', () => {
  it('loads the request pipeline, and not what a process may never use', async () => {
    const loaded = await modulesAtImport();
    // The hook sees our modules and our dependencies' (a list that missed them would pass anything below).
    expect(loaded).toEqual(
      expect.arrayContaining([
        'src/core/request/requester.ts',
        'src/client.ts',
        expect.stringMatching(/^node_modules\/zod\//),
      ]),
    );
    const onFirstUse = loaded.filter((path) =>
      /\/(upload-file|file-source|file-source-spool|multipart-body|run-doctor|doctor-target)\.ts$/.test(path),
    );
    // Files and multipart bodies on the first upload, the doctor on client.doctor(): each has tests of what it
    // does once loaded.
    expect(onFirstUse).toEqual([]);
    // Tracing loads @opentelemetry/api on the first call, and only when a tracer provider is registered.
    expect(loaded.filter((path) => path.includes('@opentelemetry'))).toEqual([]);
  });
});
