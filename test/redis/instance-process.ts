// One instance of a partner's service, run as its own Node process by multi-process.test.ts: a client with a
// RedisTokenStore (node-redis or ioredis, per PE_LIBRARY) calling a bearer route every PE_INTERVAL_MS until
// PE_DURATION_MS have passed and it made PE_MIN_CALLS calls (duration 0: until killed). Prints `ready` after
// its first successful call and, at the end, one JSON line with what its callers saw.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { PartnerEquity } from '../../src/index.js';
import { type RedisClient, RedisTokenStore } from '../../src/redis/index.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

async function connect(): Promise<{ client: RedisClient; close: () => void }> {
  const url = env('PE_REDIS_URL');
  if (env('PE_LIBRARY') === 'redis') {
    const client = createClient({ url });
    client.on('error', () => undefined);
    await client.connect();
    return { client, close: () => client.destroy() };
  }
  const client = new Redis(url);
  client.on('error', () => undefined);
  return { client, close: () => client.disconnect() };
}

const redis = await connect();
const client = new PartnerEquity({
  baseUrl: env('PE_BASE_URL'),
  clientId: env('PE_CLIENT_ID'),
  issuer: env('PE_ISSUER'),
  privateKey: env('PE_PRIVATE_KEY'),
  tokenStore: new RedisTokenStore({
    client: redis.client,
    encryptionKey: env('PE_ENCRYPTION_KEY'),
    leaseMs: Number(env('PE_LEASE_MS')),
  }),
  logLevel: 'off',
});
const duration = Number(env('PE_DURATION_MS'));
const interval = Number(env('PE_INTERVAL_MS'));
// However slowly a busy machine runs this process, it makes at least this many calls before it ends.
const minCalls = Number(process.env.PE_MIN_CALLS ?? 0);
const started = Date.now();
const result = { pid: process.pid, ok: 0, failed: [] as string[] };
const calls = () => result.ok + result.failed.length;
while (duration === 0 || Date.now() - started < duration || calls() < minCalls) {
  try {
    await client.oauth.info();
    if (result.ok++ === 0) console.log('ready');
  } catch (error) {
    result.failed.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }
  await new Promise((resolve) => setTimeout(resolve, interval));
}
console.log(JSON.stringify(result));
await client.close();
redis.close();
