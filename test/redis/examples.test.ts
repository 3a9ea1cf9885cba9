// The README's "Running many instances" examples, run as a partner runs them (their own process, against the
// in-process fake) with a real redis-server, so they cannot rot.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runScript } from '../cli/cli-process.js';
import { connectClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

describeWithRedis('examples/many-instances', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const file of ['node-redis', 'ioredis']) {
    it(`${file}.ts: one token chain in Redis, a duplicate delivery handled once`, async () => {
      const { status, stdout, stderr } = await runScript(`examples/many-instances/${file}.ts`, [], {
        env: { REDIS_URL: server.url, TOKEN_STORE_KEY: Buffer.alloc(32, 7).toString('base64') },
      });
      expect(stderr).toBe('');
      expect(status).toBe(0);
      expect(stdout).toMatch(/^authenticated; tokens shared through Redis; token info: \{.*\}$/m);
      expect(stdout.match(/^handled spv_request\.created \(webhook-id msg_\w+\)$/gm)).toHaveLength(1);
      expect(stdout).toMatch(/^the same delivery twice: (204 and 409|204 and 204) /m);
      const redis = await connectClient('redis', server.url);
      try {
        const keys = (await redis.command('KEYS', '*')) as string[];
        expect(keys.some((key) => /^partner-equity:\{[\w-]{22}\}:tokens$/.test(key))).toBe(true);
        expect(keys.some((key) => key.startsWith('partner-equity:webhook:msg_'))).toBe(true);
      } finally {
        await redis.close();
      }
    });
  }
});
