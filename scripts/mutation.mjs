// `npm run test:mutation -- <group|path>… [stryker options]`: Stryker on the named modules only.
// A group names the modules mutated together and the tests that can kill their mutants; a path under
// src/ is mutated against the test folder of the same name. Reports: reports/mutation/<name>.html|json.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const GROUPS = {
  webhooks: {
    mutate: ['src/webhooks/webhook.ts', 'src/webhooks/constant-time-equal.ts'],
    tests: ['test/webhooks/**/*.test.ts'],
  },
  'token-manager': {
    mutate: ['src/auth/token-manager.ts'],
    // The security tests pin what the manager registers for redaction before anything is sent.
    tests: [
      'test/auth/**/*.test.ts',
      'test/security/server-quoted-secrets.test.ts',
      'test/security/token-lifetime.test.ts',
    ],
  },
  retry: {
    mutate: ['src/core/request/retry-policy.ts', 'src/core/request/idempotency.ts'],
    // The token grant runs the same retry loop.
    tests: ['test/core/**/*.test.ts', 'test/auth/**/*.test.ts'],
  },
};

const args = process.argv.slice(2);
const names = args.filter((a) => !a.startsWith('-'));
const passThrough = args.filter((a) => a.startsWith('-'));
if (names.length === 0) {
  console.error(
    `usage: npm run test:mutation -- <${Object.keys(GROUPS).join('|')}|src/…ts>… [stryker options]`,
  );
  process.exit(2);
}
const mutate = new Set();
const tests = new Set();
for (const name of names) {
  const group = GROUPS[name];
  if (group !== undefined) {
    for (const m of group.mutate) mutate.add(m);
    for (const t of group.tests) tests.add(t);
    continue;
  }
  const path = name.replace(/^\.\//, '');
  if (!path.startsWith('src/') || !existsSync(path.replace(/:.*$/, ''))) {
    console.error(`unknown module group or file: ${name} (groups: ${Object.keys(GROUPS).join(', ')})`);
    process.exit(2);
  }
  mutate.add(path);
  const folder = path.split('/')[1];
  tests.add(folder?.endsWith('.ts') ? 'test/**/*.test.ts' : `test/${folder}/**/*.test.ts`);
}

const stryker = fileURLToPath(
  new URL('../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url),
);
const report = names.map((n) => n.replace(/^src\//, '').replace(/[^\w.-]+/g, '_')).join('+');
const run = spawnSync(
  process.execPath,
  [stryker, 'run', '--mutate', [...mutate].join(','), '--testFiles', [...tests].join(','), ...passThrough],
  { stdio: 'inherit', env: { ...process.env, MUTATION_REPORT: report } },
);
process.exit(run.status ?? 1);
