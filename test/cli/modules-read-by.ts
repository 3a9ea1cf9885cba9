// Run as its own process (test/cli/import-loading.test.ts): reads the file named by the first argument
// through the import's reader and prints, as JSON, every module the reading resolved.
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { readRecords } = await import('../../src/cli/import/read-records.js');
const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    seen.add(result.url.startsWith('file:') ? fileURLToPath(result.url).replace(root, '') : result.url);
    return result;
  },
});
for await (const _ of readRecords(process.argv[2] ?? '', {})) void _;
process.stdout.write(JSON.stringify([...seen]));
