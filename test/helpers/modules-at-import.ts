// Run as its own process (test/core/import-cost.test.ts): imports the SDK's main entry from its sources and
// prints, as JSON, every module the import resolved (repository-relative for our files and dependencies).
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    if (result.url.startsWith('file:')) seen.add(fileURLToPath(result.url).replace(root, ''));
    else seen.add(result.url);
    return result;
  },
});
await import('../../src/index.js');
process.stdout.write(JSON.stringify([...seen]));
