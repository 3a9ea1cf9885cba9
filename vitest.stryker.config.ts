import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The suite Stryker runs (scripts/mutation.mjs narrows it further per module group with --testFiles).
// Forked processes, one at a time: Stryker starts its own worker per concurrency slot.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['test/**/*.test.ts'],
      // The soak test takes 15–30 s per run and kills nothing a faster test does not.
      exclude: ['test/reliability/soak.test.ts', '**/node_modules/**'],
      pool: 'forks',
      maxWorkers: 1,
    },
  }),
);
