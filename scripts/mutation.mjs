// `npm run test:mutation -- <group|path>… [stryker options]`: Stryker on the named modules only.
// A group names the modules mutated together and the tests that can kill their mutants; a path under
// src/ (optionally with a `:line-line` range) is mutated against its group's tests, or the test folder
// named like its src folder. Reports: reports/mutation/<name>.html|json.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The lines of `file` from the first to the last that call one of `names`: a part of a module mutated on
// its own, found by what it calls so the range follows edits elsewhere in the file.
function linesCalling(file, names) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const calls = new RegExp(`\\b(${names.join('|')})\\(`);
  const code = (line) => !/^\s*(\/\/|\/?\*)/.test(line);
  const hits = lines.flatMap((line, index) => (code(line) && calls.test(line) ? [index + 1] : []));
  if (hits.length === 0)
    throw new Error(`${file} calls none of ${names.join(', ')}: update scripts/mutation.mjs`);
  return `${file}:${hits[0]}-${hits.at(-1)}`;
}

// Each group: the modules that guard one promise, and every test that covers them (Stryker's `related`
// and per-test coverage then run only the tests that reach each mutant). Tests that spawn the CLI are left
// out: a child process does not see the active mutant.
const GROUPS = {
  tokens: {
    mutate: ['src/auth/token-manager.ts', 'src/auth/token-store-coordinator.ts', 'src/auth/jwt-grant.ts'],
    tests: [
      'test/auth/**/*.test.ts',
      'test/tracing/**/*.test.ts',
      'test/core/auth-hook.test.ts',
      'test/redis/redis-token-store.test.ts',
      'test/redis/token-*.test.ts',
      // What the token manager registers for redaction before anything is sent.
      'test/security/server-quoted-secrets.test.ts',
      'test/security/quoted-assertion*.test.ts',
      'test/security/secret-hygiene.test.ts',
      'test/security/token-lifetime.test.ts',
    ],
  },
  webhooks: {
    mutate: [
      'src/webhooks/webhook.ts',
      'src/webhooks/constant-time-equal.ts',
      'src/webhooks/webhook-receiver.ts',
      'src/webhooks/signature-header.ts',
      'src/webhooks/scheme/signed-content-template.ts',
    ],
    tests: [
      'test/webhooks/**/*.test.ts',
      'test/tracing/**/*.test.ts',
      'test/redis/webhook-*.test.ts',
      'test/security/secret-hygiene.test.ts',
    ],
  },
  retries: {
    mutate: [
      'src/core/request/retry-policy.ts',
      'src/core/request/idempotency.ts',
      // The chunk keys of a bulk call: the derivation a re-run's safety rests on.
      linesCalling('src/core/bulk/bulk-run.ts', ['stableJson', 'idempotencyKeyOfJson', 'chunkKey']),
    ],
    // The token grant and the bulk calls run the same retry loop and keys.
    tests: [
      'test/core/**/*.test.ts',
      'test/auth/**/*.test.ts',
      'test/resources/**/*.test.ts',
      'test/tracing/**/*.test.ts',
      'test/reliability/fault-matrix.test.ts',
    ],
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
  const owner = Object.values(GROUPS).find((g) =>
    g.mutate.some((m) => m.replace(/:.*$/, '') === path.replace(/:.*$/, '')),
  );
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
