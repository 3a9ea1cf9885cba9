import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerEquity, RateLimitStore } from '../../src/index.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';
import { type LimitedFake, limitedFake } from '../core/rate-limit-harness.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { connectClient, type TestClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

const DAY_MS = 86_400_000;
const BLOCKED_PROBE_MS = 60_000; // the documented bound of a blocked budget's probe
let env: LimitedFake;
afterEach(() => env?.close());

/** The store with its round trips counted, so the harness moves the clock only while Redis is quiet. */
function counted(store: RateLimitStore, counter: { inFlight: number }): RateLimitStore {
  const track = <T>(pending: Promise<T>) => {
    counter.inFlight += 1;
    return pending.finally(() => {
      counter.inFlight -= 1;
    });
  };
  return { take: (...args) => track(store.take(...args)), push: (...args) => track(store.push(...args)) };
}

/** `fetch` that gives the first answer `headers` (a buggy proxy's), counted until its body is read. */
function absurdOnce(headers: Record<string, string>, counter: { inFlight: number }): typeof fetch {
  let first = true;
  return async (input, init) => {
    counter.inFlight += 1;
    try {
      const response = await fetch(input, init);
      const body = await response.arrayBuffer();
      const head = new Headers(response.headers);
      if (first) for (const [name, value] of Object.entries(headers)) head.set(name, value);
      first = false;
      return new Response(body, { status: response.status, headers: head });
    } finally {
      counter.inFlight -= 1;
    }
  };
}

function outcomes(calls: Promise<unknown>[]) {
  return Promise.all(
    calls.map((call) =>
      call.then(
        () => 'ok',
        (error: Error) => error.name,
      ),
    ),
  );
}

describeWithRedis('what one answer writes to a shared Redis is bounded', () => {
  let server: RedisServer;
  const redis: TestClient[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterEach(async () => {
    await Promise.all(redis.splice(0).map((client) => client.close()));
  });
  afterAll(() => server?.stop());

  async function instance(extra: Parameters<LimitedFake['client']>[0] = {}) {
    const client = await connectClient('redis', server.url);
    redis.push(client);
    const counter = { inFlight: 0 };
    env.alsoBusy(() => counter.inFlight);
    const store = counted(new RedisRateLimitStore({ client: client.client }), counter);
    return { sdk: env.client({ rateLimitStore: store, ...extra }), counter };
  }

  async function stored(sdk: PartnerEquity, probe: TestClient) {
    const key = `partner-equity:ratelimit:${env.partner.clientId}@${sdk.baseUrl}`;
    const [tat, until] = (await probe.command('HMGET', key, 'tat', 'until')) as string[];
    return { tat: Number(tat), until: Number(until), pttl: Number(await probe.command('PTTL', key)) };
  }

  it.each([
    ['a window of 3,170 years', '99999999999'],
    ['a 400-digit window', '9'.repeat(400)],
  ])(
    '%s: finite times within the hour, a TTL within a day; a fresh instance is not locked out',
    async (_what, w) => {
      env = await limitedFake();
      await (await connectClient('redis', server.url)).command('FLUSHALL');
      const counter = { inFlight: 0 };
      env.alsoBusy(() => counter.inFlight);
      const absurd = { 'ratelimit-policy': `"p";q=10;w=${w}`, ratelimit: '"p";r=5;t=1' };
      const first = await instance({ fetch: absurdOnce(absurd, counter) });
      await env.drive(first.sdk.oauth.info());
      const probe = await connectClient('redis', server.url);
      redis.push(probe);
      const now = env.fake.clock.now();
      const kept = await stored(first.sdk, probe);
      expect(Number.isFinite(kept.tat) && Number.isFinite(kept.until)).toBe(true);
      expect(kept.tat).toBeLessThanOrEqual(now + 3_600_000);
      expect(kept.pttl).toBeGreaterThan(0);
      expect(kept.pttl).toBeLessThanOrEqual(DAY_MS);

      const fresh = await instance();
      const { value, elapsedMs } = await env.drive(
        outcomes(Array.from({ length: 5 }, () => fresh.sdk.oauth.info())),
        50,
      );
      expect(value).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
      expect(elapsedMs).toBeLessThanOrEqual(BLOCKED_PROBE_MS + 1000);
    },
  );

  it('a key an older version left with `inf` and no expiry is read as empty', async () => {
    env = await limitedFake();
    const probe = await connectClient('redis', server.url);
    redis.push(probe);
    const fresh = await instance();
    const key = `partner-equity:ratelimit:${env.partner.clientId}@${fresh.sdk.baseUrl}`;
    await probe.command('HSET', key, 'tat', 'inf', 'until', 'nan');
    const { value, elapsedMs } = await env.drive(
      outcomes(Array.from({ length: 5 }, () => fresh.sdk.oauth.info())),
    );
    expect(value).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(elapsedMs).toBeLessThanOrEqual(1000);
    const kept = await stored(fresh.sdk, probe);
    expect(Number.isFinite(kept.tat)).toBe(true);
    expect(kept.pttl).toBeGreaterThan(0);
  });
});

/** A node-redis-shaped client that records each command and answers with `reply` (a promise to hang). */
function stubRedis(reply: () => Promise<unknown>) {
  const sent: string[] = [];
  const client = {
    isReady: true,
    // After 200 commands the stub stops answering: a spinning pump would otherwise starve the test itself.
    sendCommand: (args: string[]) => {
      sent.push(args[0] ?? '');
      return sent.length > 200 ? new Promise(() => undefined) : reply();
    },
  };
  return { client, sent };
}

describe('a Redis that answers wrong or not at all', () => {
  it('a string where a number is expected: a store fault; every call goes, no spinning', async () => {
    env = await limitedFake();
    const { client, sent } = stubRedis(async () => 'garbage');
    const logger = memoryLogger();
    const sdk = env.client({ rateLimitStore: new RedisRateLimitStore({ client }), logger });
    const { value } = await env.drive(outcomes(Array.from({ length: 20 }, () => sdk.oauth.info())));
    expect(value).toEqual(Array(20).fill('ok'));
    expect(env.statuses(/^\/v1\/oauth2\/info$/)).toEqual({ limited: 0, ok: 20 });
    expect(sent.length).toBeLessThanOrEqual(4);
    const warnings = logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings).toEqual([expect.stringMatching(/rate limit store unavailable.*not a wait in ms/)]);
  });

  it('frozen: five calls bounded at 500 ms go within it, and Redis is left alone for a while', async () => {
    env = await limitedFake();
    const { client, sent } = stubRedis(() => new Promise(() => undefined));
    const sdk = env.client({ rateLimitStore: new RedisRateLimitStore({ client }), maxRateLimitWait: 500 });
    const { value, elapsedMs } = await env.drive(outcomes(Array.from({ length: 5 }, () => sdk.oauth.info())));
    expect(value).toEqual(Array(5).fill('ok'));
    expect(elapsedMs).toBeLessThanOrEqual(600);
    // One write of what the first answer said and one slot asked for; then no command per call.
    expect(sent.length).toBeLessThanOrEqual(2);
    const before = sent.length;
    await env.drive(outcomes(Array.from({ length: 5 }, () => sdk.oauth.info())));
    expect(sent.length).toBe(before);
    // After the 30 s the store is left alone, it is asked again.
    await env.fake.clock.advance(30_000);
    await env.drive(outcomes(Array.from({ length: 3 }, () => sdk.oauth.info())));
    expect(sent.length).toBeGreaterThan(before);
  });
});
