// `npm run test:mutation -- <group|path>… [stryker options]`: Stryker on the named modules only.
// A group names the modules mutated together and the tests that can kill their mutants; a path under
// src/ (optionally with a `:line-line` range) is mutated against its group's tests, or the test folder
// named like its src folder. Reports: reports/mutation/<name>.html|json.
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
// Module names first; everything from the first option on goes to Stryker as given.
const firstOption = args.findIndex((a) => a.startsWith('-'));
const names = firstOption === -1 ? args : args.slice(0, firstOption);
const passThrough = firstOption === -1 ? [] : args.slice(firstOption);
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
  // A file of a group keeps the group's tests; any other, the test folder named like its src folder.
  const owner = Object.values(GROUPS).find((g) => g.mutate.includes(path.replace(/:.*$/, '')));
  const folder = path.split('/')[1];
  const own = folder?.endsWith('.ts') ? ['test/**/*.test.ts'] : [`test/${folder}/**/*.test.ts`];
  for (const t of owner?.tests ?? own) tests.add(t);
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
