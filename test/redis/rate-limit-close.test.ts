import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ClientClosedError } from '../../src/index.js';
import { type RedisClient, RedisRateLimitStore } from '../../src/redis/index.js';
import { type LimitedFake, limitedFake } from '../core/rate-limit-harness.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { connectClient, type TestClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

/** The partner's node-redis client, every command it is given recorded in order. */
function recording(client: TestClient) {
  const real = client.client as { sendCommand(args: string[]): Promise<unknown>; isReady?: boolean };
  const commands: string[] = [];
  const inFlight = { count: 0 };
  const wrapped: RedisClient = {
    get isReady() {
      return real.isReady !== false;
    },
    sendCommand: (args) => {
      commands.push(args[0] ?? '');
      inFlight.count += 1;
      return real.sendCommand(args).finally(() => {
        inFlight.count -= 1;
      });
    },
  };
  return { wrapped, commands, inFlight };
}

describeWithRedis('close() means closed, with a shared rate budget on a real redis-server', () => {
  let server: RedisServer;
  let env: LimitedFake;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterEach(() => env?.close());
  afterAll(() => server?.stop());

  it('no store command after close() resolves; calls waiting and calls after fail with ClientClosedError', async () => {
    env = await limitedFake({ rateLimit: '2/s' });
    const redis = await connectClient('redis', server.url);
    const { wrapped, commands, inFlight } = recording(redis);
    env.alsoBusy(() => inFlight.count);
    const logger = memoryLogger();
    const client = env.client({ rateLimitStore: new RedisRateLimitStore({ client: wrapped }), logger });
    const derived = client.withOptions({ maxRetries: 0 });
    // Two go, the rest wait their turn in the 2/s budget.
    await env.drive(client.oauth.info());
    const calls = Array.from({ length: 6 }, () =>
      client.oauth.info().then(
        () => 'ok',
        (error: unknown) => error,
      ),
    );
    await env.settle();
    await env.fake.clock.advance(500);
    await env.settle();
    const sentBefore = env.fake.requests.length;

    await derived.close();
    const afterClose = commands.length;
    await redis.close();

    const { value } = await env.drive(Promise.all(calls));
    expect(commands.length).toBe(afterClose);
    expect(env.fake.requests.length).toBe(sentBefore);
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
    const closed = value.filter((outcome) => outcome instanceof ClientClosedError);
    expect(closed.length).toBeGreaterThan(0);
    expect((closed[0] as ClientClosedError).code).toBe('client_closed');
    const later = await client.oauth.info().catch((error: unknown) => error);
    expect(later).toBeInstanceOf(ClientClosedError);
    expect((later as Error).message).toBe(
      'GET /v1/oauth2/info: the client is closed (close() was called); build a new client to send requests',
    );
  });
});
