import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests use real loopback sockets; fake clocks are injected per test, never global sleeps.
    pool: 'forks',
  },
});
