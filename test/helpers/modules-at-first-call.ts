// Run as its own process (test/core/first-call-loading.test.ts): imports the SDK's main entry from its
// sources, builds a client of the fake partner in PE_TEST_PARTNER and makes one authenticated call; prints,
// as JSON, the modules the import resolved and those resolved by the call (repository-relative).
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    seen.add(result.url.startsWith('file:') ? fileURLToPath(result.url).replace(root, '') : result.url);
    return result;
  },
});
const { PartnerEquity } = await import('../../src/index.js');
const atImport = [...seen];
const client = new PartnerEquity({ ...JSON.parse(process.env['PE_TEST_PARTNER'] ?? '{}'), logLevel: 'off' });
const info = await client.oauth.info();
const byCall = [...seen].filter((path) => !atImport.includes(path));
await client.close();
process.stdout.write(JSON.stringify({ atImport, byCall, clientId: info.clientId }));
