import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Where CI wants vitest's JSON results (see .ci/run); unset for everyone else. */
const resultsFile = process.env.PARTNER_EQUITY_TEST_RESULTS;

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // Examples import the package by its published name, as a partner would; mirrors tsconfig `paths`.
  // Exact-match patterns so '@partner-equity/sdk' does not swallow its subpaths.
  resolve: {
    alias: [
      { find: /^@partner-equity\/sdk$/, replacement: src('index.ts') },
      { find: /^@partner-equity\/sdk\/webhooks$/, replacement: src('webhooks/index.node.ts') },
      { find: /^@partner-equity\/sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^@partner-equity\/sdk\/redis$/, replacement: src('redis/index.ts') },
    ],
  },
  test: {
    // examples/**/*.test.ts: the integration test partners copy runs with the suite, so it cannot rot.
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // A hang detector, not a speed check: sized for the suite run beside two CPU-bound processes
    // (scripts/test-under-load.sh), where a test gets a quarter of a core and a child process starts 4-5x
    // slower than on an idle machine. Tests that do minutes of work under load say so with their own.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // CI's one Node 24 run is the README's `npm test` in a clone: this variable adds the JSON results
    // that its summary step reads, without changing the command a contributor types.
    ...(resultsFile === undefined || resultsFile === ''
      ? {}
      : { reporters: ['default', 'json'], outputFile: { json: resultsFile } }),
    // Tests use real loopback sockets; fake clocks are injected per test, never global sleeps. Worker
    // threads start faster than forked processes; tests needing a process of their own spawn one.
    pool: 'threads',
    // One worker per core: vitest's default leaves one core out (availableParallelism - 1), which on a
    // 2-core machine ran the suite on one worker (about 130 s; 87 s with two). Most time is spent waiting
    // on loopback sockets and child processes, not computing.
    maxWorkers: availableParallelism(),
    // The SDK's own tests read every response strictly: a stated field missing fails the test.
    env: { PARTNER_EQUITY_RESPONSE_VALIDATION: 'strict' },
  },
});
