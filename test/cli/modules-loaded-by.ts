// Run as its own process (test/cli/import-loading.test.ts): imports the module named by the first argument
// (a path relative to the repository) and prints, as JSON, every module the import resolved.
import { registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    seen.add(result.url.startsWith('file:') ? fileURLToPath(result.url).replace(root, '') : result.url);
    return result;
  },
});
await import(pathToFileURL(`${root}${process.argv[2]}`).href);
process.stdout.write(JSON.stringify([...seen]));
