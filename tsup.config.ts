import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // Webhooks: a Web Crypto build (default condition) and a node:crypto build (`node` condition).
    'webhooks/index': 'src/webhooks/index.ts',
    'webhooks/index.node': 'src/webhooks/index.node.ts',
    // The fake API for tests (`@partner-equity/sdk/testing`); needs the optional peer dependency msw.
    'testing/index': 'src/testing/index.ts',
    // Token and webhook-id stores on Redis (`@partner-equity/sdk/redis`); the partner brings redis or ioredis.
    'redis/index': 'src/redis/index.ts',
    // The `partner-equity` command (package.json `bin`); only its ESM file is used.
    'cli/index': 'src/cli/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  splitting: true,
  treeshake: true,
});
