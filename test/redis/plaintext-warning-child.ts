// Run as its own process (plaintext-warning.test.ts): builds RedisTokenStores and prints the warnings seen.
import { Redis } from 'ioredis';
import { RedisTokenStore } from '../../src/redis/index.js';

const warnings: string[] = [];
process.on('warning', (warning) =>
  warnings.push(`${(warning as { code?: string }).code}: ${warning.message}`),
);
const client = new Redis({ lazyConnect: true });
const mode = process.argv[2];
if (mode === 'plaintext') {
  new RedisTokenStore({ client });
  new RedisTokenStore({ client });
} else if (mode === 'allowed') new RedisTokenStore({ client, allowPlaintext: true });
else new RedisTokenStore({ client, encryptionKey: Buffer.alloc(32, 7) });
await new Promise((resolve) => setImmediate(resolve));
client.disconnect();
process.stdout.write(JSON.stringify(warnings));
