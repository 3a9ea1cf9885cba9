import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster.js';
import { describeWithRedis, RedisServer } from './redis-server.js';
import { startSlowProxy } from './slow-proxy.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const STEP = 15 * MINUTE;

const warned = (cluster: Cluster, text: string) =>
  cluster.instances.filter((instance) => instance.logger.text().includes(text)).length;

describeWithRedis('token store faults: nothing lost, nothing doubled', () => {
  let server: RedisServer;
  let cluster: Cluster | undefined;
  const cleanup: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
    for (const step of cleanup.splice(0)) await step();
    if (!server.running) await server.resume();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('Redis stopped mid-run and restarted empty: every instance falls back to a chain of its own, then all return to one shared chain', async () => {
    cluster = await startCluster({ redisUrl: server.url, size: 20 });
    await cluster.callAll();
    await cluster.run((2 * HOUR) / STEP, STEP);
    expect(cluster.tokenStats().exchanges).toBeLessThanOrEqual(5);

    await server.pause();
    const beforeOutage = cluster.tokenStats().exchanges;
    await cluster.run((2 * HOUR) / STEP, STEP); // two hours without Redis
    expect(cluster.failures).toEqual([]);
    expect(warned(cluster, 'Token store unavailable; using a token chain of this process')).toBe(20);
    // Each instance renews on its own while Redis is gone: about one exchange per instance per half hour.
    const outage = cluster.tokenStats().exchanges - beforeOutage;
    expect(outage).toBeGreaterThanOrEqual(20);
    expect(outage).toBeLessThanOrEqual(20 * 5);

    await server.resume(); // persistence off: Redis comes back empty
    await Promise.all(cluster.instances.map((instance) => instance.redis.ready()));
    const afterOutage = cluster.tokenStats().exchanges;
    await cluster.run((4 * HOUR) / STEP, STEP);
    expect(warned(cluster, 'Token store answers again; using the shared token chain')).toBe(20);
    // Back on one chain: the first instance to look hands its own pair to Redis, the others adopt it, and
    // from then on one renewal per half hour or so serves everyone.
    expect(cluster.tokenStats().exchanges - afterOutage).toBeLessThanOrEqual((4 * HOUR) / (30 * MINUTE) + 1);
    const tokensInUse = new Set(
      cluster.fake.requests.slice(-20).map((request) => request.headers.authorization),
    );
    expect(tokensInUse.size).toBe(1);
    expect(cluster.failures).toEqual([]);
    expect(cluster.tokenStats().refreshPresentedTwice).toBe(0);
  });

  it('a slow Redis (replies held back 25 ms): the same single chain, no error, no fallback', async () => {
    const proxy = await startSlowProxy(server.port, 25);
    cleanup.push(() => proxy.close());
    cluster = await startCluster({ redisUrl: proxy.url, serverUrl: server.url, size: 20 });
    await cluster.callAll();
    await cluster.run((6 * HOUR) / STEP, STEP);
    const stats = cluster.tokenStats();
    expect(cluster.failures).toEqual([]);
    expect(stats.refreshPresentedTwice).toBe(0);
    expect(stats.assertionGrants).toBe(1);
    expect(stats.exchanges).toBeLessThanOrEqual((6 * HOUR) / (30 * MINUTE) + 1);
    expect(warned(cluster, 'Token store unavailable')).toBe(0);
  });

  it('a Redis slower than commandTimeoutMs counts as unavailable: local chains meanwhile, back to one chain when it speeds up', async () => {
    const proxy = await startSlowProxy(server.port, 0);
    cleanup.push(() => proxy.close());
    cluster = await startCluster({
      redisUrl: proxy.url,
      serverUrl: server.url,
      size: 8,
      store: { commandTimeoutMs: 100, leaseMs: 500 },
    });
    await cluster.callAll();
    proxy.setDelay(400);
    await cluster.run((2 * HOUR) / STEP, STEP);
    expect(cluster.failures).toEqual([]);
    expect(warned(cluster, 'Token store unavailable; using a token chain of this process')).toBe(8);
    const line = cluster.instances[0]?.logger.lines.find((entry) =>
      entry.message.startsWith('Token store unavailable'),
    );
    expect(line?.fields).toEqual({
      error: 'RedisStoreError',
      code: 'redis_timeout',
      message: expect.stringMatching(/^Redis [\w ]+: no answer within 100 ms$/),
    });

    proxy.setDelay(0);
    // Replies already held back still arrive late (the proxy keeps their order), so each instance returns
    // at its first look after they drained.
    for (let step = 0; step < 200 && warned(cluster, 'Token store answers again') < 8; step++) {
      await cluster.run(1, STEP);
    }
    expect(warned(cluster, 'Token store answers again')).toBe(8);
    await cluster.run((2 * HOUR) / STEP, STEP);
    expect(cluster.failures).toEqual([]);
    expect(cluster.tokenStats().refreshPresentedTwice).toBe(0);
  });

  it("whenUnavailable: 'fail' surfaces the RedisStoreError to the calls that need a new token", async () => {
    cluster = await startCluster({ redisUrl: server.url, size: 2, store: { whenUnavailable: 'fail' } });
    await cluster.callAll();
    await server.pause();
    await cluster.fake.clock.advance(HOUR); // the token is past its blocking point: a new one is needed
    await cluster.callAll();
    expect(cluster.failures).toHaveLength(2);
    expect(cluster.failures[0]).toMatchObject({ name: 'RedisStoreError', code: 'redis_unavailable' });
    expect(cluster.tokenStats().exchanges).toBe(1);
  });
});
