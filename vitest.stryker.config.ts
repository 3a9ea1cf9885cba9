import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The suite Stryker runs (scripts/mutation.mjs narrows it further per module group with --testFiles).
// Forked processes, one at a time: Stryker starts its own worker per concurrency slot.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['test/**/*.test.ts'],
      // The soak test and the 20-instance token cluster take 15–30 s per run (more under instrumentation on a
      // busy machine, past the test timeout) and kill nothing the faster token store tests do not.
      exclude: ['test/reliability/soak.test.ts', 'test/redis/token-cluster.test.ts', '**/node_modules/**'],
      pool: 'forks',
      maxWorkers: 1,
    },
  }),
);
