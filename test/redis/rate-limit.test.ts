import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { RateLimitStore } from '../../src/index.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';
import { type LimitedFake, limitedFake } from '../core/rate-limit-harness.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { connectClient, LIBRARIES, type TestClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

/** The store with its round trips counted, so the harness moves the clock only while Redis is quiet. */
function counted(store: RateLimitStore, counter: { inFlight: number }): RateLimitStore {
  const track = <T>(pending: Promise<T>) => {
    counter.inFlight += 1;
    return pending.finally(() => {
      counter.inFlight -= 1;
    });
  };
  return {
    take: (...args) => track(store.take(...args)),
    push: (...args) => track(store.push(...args)),
  };
}

const INFO = /^\/v1\/oauth2\/info$/;

describeWithRedis('one rate budget for a fleet, on a real redis-server', () => {
  let server: RedisServer;
  let env: LimitedFake;
  const redis: TestClient[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterEach(async () => {
    await Promise.all(redis.splice(0).map((client) => client.close()));
    await env?.close();
  });
  afterAll(() => server?.stop());

  it('8 instances x 15 concurrent reads against 10/s: all 120 succeed, at most 12 429s, within 1.5x the 11 s floor', async () => {
    env = await limitedFake();
    const counter = { inFlight: 0 };
    env.alsoBusy(() => counter.inFlight);
    const instances = [];
    for (let index = 0; index < 8; index++) {
      const client = await connectClient(LIBRARIES[index % 2]!, server.url);
      redis.push(client);
      const store = counted(new RedisRateLimitStore({ client: client.client }), counter);
      instances.push(env.client({ rateLimitStore: store }));
    }
    const calls = instances.flatMap((sdk) => Array.from({ length: 15 }, () => sdk.oauth.info()));
    const { value, elapsedMs } = await env.drive(Promise.allSettled(calls));
    const { limited, ok } = env.statuses(INFO);
    console.info(`fleet: ${ok} ok, ${limited} 429s, ${elapsedMs} ms on the fake clock (floor 11000)`);
    expect(value.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(ok).toBe(120);
    expect(limited).toBeLessThanOrEqual(12);
    expect(elapsedMs).toBeLessThanOrEqual(16_500);
  });

  it('without the shared store the same fleet draws many more 429s', async () => {
    env = await limitedFake();
    const instances = Array.from({ length: 8 }, () => env.client());
    const calls = instances.flatMap((sdk) => Array.from({ length: 15 }, () => sdk.oauth.info()));
    await env.drive(Promise.allSettled(calls));
    expect(env.statuses(INFO).limited).toBeGreaterThan(12);
  });

  it('fails open when Redis is down: one warning, and the client paces on its own', async () => {
    env = await limitedFake();
    const client = await connectClient('redis', server.url);
    await client.close();
    const logger = memoryLogger();
    const sdk = env.client({ rateLimitStore: new RedisRateLimitStore({ client: client.client }), logger });
    const { value } = await env.drive(Promise.allSettled(Array.from({ length: 20 }, () => sdk.oauth.info())));
    expect(value.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(env.statuses(INFO)).toEqual({ limited: 0, ok: 20 });
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/rate limit store unavailable/);
  });
});
