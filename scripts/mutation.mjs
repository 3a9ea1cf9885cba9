// `npm run test:mutation -- <group|path>… [stryker options]`: Stryker on the named modules only.
// A group names the modules mutated together and the tests that can kill their mutants; a path under
// src/ (optionally with a `:line-line` range) is mutated against its group's tests, or the test folder
// named like its src folder. Reports: reports/mutation/<name>.html|json.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The lines of `file` from the first to the last that call a function it imports from `module`: the part of
// a module that uses another one, mutated with it. The names come from the file's own import statement, so
// the range follows renames and edits elsewhere in the file; when the file no longer imports from `module`
// (the code moved), the run stops rather than mutate the wrong lines.
function linesCallingImportsOf(file, module) {
  const source = readFileSync(file, 'utf8');
  const escaped = module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const imports = [...source.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*'${escaped}'`, 'g'))];
  const names = imports
    .flatMap((m) => m[1].split(','))
    .map((n) =>
      n
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1),
    )
    .filter((n) => n !== undefined && n !== '');
  if (names.length === 0)
    throw new Error(`${file} imports nothing from ${module}: update scripts/mutation.mjs`);
  const calls = new RegExp(`\\b(${names.join('|')})\\(`);
  const code = (line) => !/^\s*(\/\/|\/?\*)/.test(line);
  const hits = source
    .split('\n')
    .flatMap((line, index) => (code(line) && calls.test(line) ? [index + 1] : []));
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
      // The chunk keys of a bulk call, the derivation a re-run's safety rests on: the lines of bulk-run that
      // call what it imports from idempotency.ts (the derivation's own code is mutated there in full).
      linesCallingImportsOf('src/core/bulk/bulk-run.ts', '../request/idempotency.js'),
      linesCallingImportsOf('src/core/bulk/chunk-sender.ts', '../request/idempotency.js'),
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
  // What the SDK learns from a service's rate-limit headers (issue 46).
  limits: {
    mutate: ['src/core/rate-limit/read-rate-limit.ts'],
    tests: ['test/core/read-rate-limit.test.ts', 'test/core/rate-limit*.test.ts'],
  },
  // The limiter: the pace it keeps, the waits it bounds, the probe that lets a wrong rule be corrected, the
  // fleet budget it shares through a store (issue 46).
  limiter: {
    mutate: ['src/core/rate-limit/rate-limiter.ts'],
    tests: [
      'test/core/rate-limit*.test.ts',
      'test/core/one-resender.test.ts',
      'test/core/timer-options.test.ts',
      'test/core/retry*.test.ts',
      'test/redis/rate-limit*.test.ts',
    ],
  },
  // The bound on what a response may make the SDK read: bytes as received and as decoded (issue 46).
  decompression: {
    mutate: ['src/core/transport/response-body.ts'],
    tests: [
      'test/core/response-body.test.ts',
      'test/core/compressed-responses.test.ts',
      'test/core/transport-streaming.test.ts',
      'test/core/undici-transport.test.ts',
      'test/core/fetch-transport.test.ts',
      'test/security/hostile-responses.test.ts',
    ],
  },
  // What the CLI import writes for a person to open: formulas neutralised, the file never written through
  // a link or over its input (issue 46). Its in-process tests only: the CLI's own spawn a child.
  results: {
    mutate: ['src/cli/import/results-file.ts'],
    tests: ['test/cli/results-file.test.ts'],
  },
  // What keeps a secret or a server's control characters out of errors, logs and the terminal (issue 46).
  redaction: {
    mutate: [
      'src/core/logging/redact.ts',
      'src/core/logging/secret-registry.ts',
      'src/core/logging/printable.ts',
    ],
    tests: [
      'test/core/logging.test.ts',
      'test/security/redaction*.test.ts',
      'test/security/quoted-assertion*.test.ts',
      'test/security/server-quoted-secrets.test.ts',
      'test/security/secret-hygiene.test.ts',
      'test/security/log-bounds.test.ts',
      'test/security/terminal-escapes.test.ts',
      'test/security/hostile-responses.test.ts',
      'test/auth/token-manager-guards.test.ts',
      'test/tracing/personal-data.test.ts',
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
    `usage: npm run test:mutation -- <all|${Object.keys(GROUPS).join('|')}|src/…ts>… [stryker options]`,
  );
  process.exit(2);
}

// Stryker on the modules `names` name together, against their tests; its exit status (1 when the score is
// under `thresholds.break`).
function stryker(names) {
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
  const bin = fileURLToPath(new URL('../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url));
  // Names the reports and the incremental file: reports/mutation/<report>.html|json|incremental.json.
  const report = names.map((n) => n.replace(/^src\//, '').replace(/[^\w.-]+/g, '_')).join('+');
  const run = spawnSync(
    process.execPath,
    [bin, 'run', '--mutate', [...mutate].join(','), '--testFiles', [...tests].join(','), ...passThrough],
    { stdio: 'inherit', env: { ...process.env, MUTATION_REPORT: report } },
  );
  return run.status ?? 1;
}

// `all`: each group on its own, one after another (what .ci/run does, and `test:mutation:refresh` with
// --force); every group runs, and the exit status says whether any failed.
if (names.length === 1 && names[0] === 'all') {
  const failed = Object.keys(GROUPS).filter((group) => {
    console.log(`\n=== mutation group ${group} ===`);
    return stryker([group]) !== 0;
  });
  if (failed.length > 0)
    console.error(`mutation groups under the break threshold or failing: ${failed.join(', ')}`);
  process.exit(failed.length === 0 ? 0 : 1);
}
process.exit(stryker(names));
