import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { PartnerEquity } from '../../src/index.js';
import { RedisStoreError, RedisTokenStore, type RedisTokenStoreOptions } from '../../src/redis/index.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { connectClient, type TestClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

// A wrong encryptionKey is a configuration error, not an outage: what an on-call engineer reads in the logs
// of a process whose key cannot read the shared tokens, and of one whose Redis is gone.

const MISCONFIGURED =
  'Token store misconfigured, not unavailable: using a token chain of this process, saying so at every look (every 15 s) until the configuration is fixed';
const UNREADABLE = 'Stored token unreadable: encrypted with a key that is not configured';

describeWithRedis('a token store whose configuration is wrong', () => {
  let server: RedisServer;
  let fake: FakePartnerEquity;
  let partner: Awaited<ReturnType<FakePartnerEquity['createPartner']>>;
  const opened: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  async function start(): Promise<void> {
    fake = new FakePartnerEquity();
    await fake.listen();
    opened.push(fake);
    partner = await fake.createPartner();
  }

  /** A process of the partner's service: its own Redis connection, store and client. */
  async function instance(store: Omit<RedisTokenStoreOptions, 'client'>) {
    const redis: TestClient = await connectClient('redis', server.url);
    opened.push(redis);
    const logger = memoryLogger();
    const sdk = new PartnerEquity({
      ...partner,
      clock: fake.clock,
      logger,
      tokenStore: new RedisTokenStore({ client: redis.client, ...store }),
    });
    opened.push(sdk);
    return { sdk, logger, redis };
  }

  const tokenStoreLines = (logger: ReturnType<typeof memoryLogger>) =>
    logger.lines.filter((line) => line.message.startsWith('Token store'));

  it('a key that cannot read the shared tokens is logged at error with its code and message, at every look', async () => {
    await start();
    const right = await instance({ encryptionKey: randomBytes(32) });
    await right.sdk.oauth.info(); // the shared tokens, sealed with the right key
    const wrong = await instance({ encryptionKey: randomBytes(32) });

    await expect(wrong.sdk.oauth.info()).resolves.toBeDefined(); // served by a chain of its own
    const line = {
      level: 'error',
      message: MISCONFIGURED,
      fields: { error: 'RedisStoreError', code: 'redis_decrypt_failed', message: UNREADABLE },
    };
    expect(tokenStoreLines(wrong.logger)).toEqual([line]);

    // Not an outage said once: the next look, 15 s on, says it again.
    await fake.clock.advance(15_000);
    await wrong.sdk.oauth.info();
    // The look runs beside the call (a cached token serves it): wait for its line, not for the call.
    await vi.waitFor(() => expect(tokenStoreLines(wrong.logger)).toEqual([line, line]), { timeout: 30_000 });
    expect(right.logger.lines.filter((l) => l.level !== 'debug')).toEqual([]);
  });

  it("with whenUnavailable: 'fail', the call fails with the store's error, logged at error", async () => {
    await start();
    const right = await instance({ encryptionKey: randomBytes(32) });
    await right.sdk.oauth.info();
    const wrong = await instance({ encryptionKey: randomBytes(32), whenUnavailable: 'fail' });

    const error = await wrong.sdk.oauth.info().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedisStoreError);
    expect(error).toMatchObject({ code: 'redis_decrypt_failed', message: UNREADABLE });
    expect(tokenStoreLines(wrong.logger)).toEqual([
      {
        level: 'error',
        message: 'Token store misconfigured; the call fails',
        fields: { error: 'RedisStoreError', code: 'redis_decrypt_failed', message: UNREADABLE },
      },
    ]);
  });

  it('an outage is a warning that names its code and message', async () => {
    await start();
    const down = await instance({ allowPlaintext: true });
    await down.redis.close(); // the connection is gone
    await expect(down.sdk.oauth.info()).resolves.toBeDefined();
    expect(tokenStoreLines(down.logger)).toEqual([
      {
        level: 'warn',
        message: 'Token store unavailable; using a token chain of this process until it answers',
        fields: {
          error: 'RedisStoreError',
          code: 'redis_unavailable',
          message: 'Redis read tokens: the redis client is not connected',
        },
      },
    ]);
  });
});
