import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { RedisWebhookIdStore } from '../../src/redis/index.js';
import { connectClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';
import { startSlowProxy } from './slow-proxy.js';
import { deliverTwice, makeDeliveries, type Pool, startPool, tally } from './webhook-pool.js';

/** Polls `condition` (real I/O each time) until it holds; fails after 30 s (a hang detector). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  const giveUpAt = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeWithRedis('webhook id store faults: nothing lost, nothing doubled', () => {
  // With the append-only file on, as the README asks for this store: a restart keeps the handled ids.
  let server: RedisServer;
  let pool: Pool | undefined;
  const cleanup: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    server = await RedisServer.start({ appendOnly: true });
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
    for (const step of cleanup.splice(0)) await step();
    if (!server.running) await server.resume();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('Redis stopped mid-run (a handler still running) and restarted: 503 meanwhile, then every id handled exactly once', async () => {
    let releaseHeld = () => {};
    let heldStarted = () => {};
    const started = new Promise<void>((resolve) => {
      heldStarted = resolve;
    });
    pool = await startPool({
      redisUrl: server.url,
      size: 20,
      gate: (id) =>
        id === 'msg_held_0'
          ? new Promise<void>((resolve) => {
              releaseHeld = resolve;
              heldStarted();
            })
          : undefined,
    });
    const before = await makeDeliveries('msg_before', 300);
    await deliverTwice(pool, before);

    // One delivery's handler is running when Redis stops; it finishes during the outage.
    const [held] = await makeDeliveries('msg_held', 1);
    if (held === undefined) throw new Error('no delivery');
    const heldAnswer = pool.send(held, 0);
    await started;
    await server.pause();
    releaseHeld();
    // The handler ran: acknowledged (the store's failure to record it goes to onError), no redelivery needed.
    expect(await heldAnswer).toBe(204);

    const during = await makeDeliveries('msg_during', 300);
    const rounds = await deliverTwice(pool, [...during, held], {
      beforeRound: async (round) => {
        if (round !== 1) return;
        await server.resume();
        await Promise.all(pool?.receivers.map((receiver) => receiver.redis.ready()) ?? []);
        // The held delivery's `done` is written as soon as Redis answers again.
        const check = await connectClient('redis', server.url);
        await until(async () => (await check.command('GET', 'partner-equity:webhook:msg_held_0')) === 'done');
        await check.close();
      },
    });
    const outage = tally(rounds[0] ?? []);
    // While Redis is down, every copy is refused with a 503 (the receiver's store-failure answer), and the
    // service retries it later.
    expect(Object.keys(outage)).toEqual(['503']);
    expect(Object.values(outage).reduce((a, b) => a + b, 0)).toBe(602);

    for (const { id } of [...before, held, ...during]) expect(pool.log.runs.get(id), id).toBe(1);
    // Redelivered after the restart, the ids handled before it are still known (append-only file).
    expect(tally((await deliverTwice(pool, before.slice(0, 50))).flat())).toEqual({ 204: 100 });
    for (const { id } of before) expect(pool.log.runs.get(id), id).toBe(1);
  });

  it('a slow Redis (replies held back 25 ms): every handler still runs exactly once', async () => {
    const proxy = await startSlowProxy(server.port, 25);
    cleanup.push(() => proxy.close());
    pool = await startPool({ redisUrl: proxy.url, size: 20 });
    const deliveries = await makeDeliveries('msg_slow', 300);
    await deliverTwice(pool, deliveries);
    for (const { id } of deliveries) expect(pool.log.runs.get(id), id).toBe(1);
    expect(pool.storeErrors).toEqual([]);
  });

  it("a receiver that dies mid-handler blocks its id only for inProgressTtlSeconds; the service's retry then runs it", async () => {
    // The pool starts first, so only the two deliveries below run inside the claim's 3 s, however busy
    // the machine (starting four receivers there took longer than a 1 s claim lasts).
    pool = await startPool({ redisUrl: server.url, size: 4 });
    const deliveries = await makeDeliveries('msg_orphan', 1);
    // The dying receiver: claims the id, then its process is gone (its connection closes, nothing renews it).
    const doomed = await connectClient('ioredis', server.url);
    const store = new RedisWebhookIdStore({ client: doomed.client, inProgressTtlSeconds: 3 });
    expect(await store.claim('msg_orphan_0', 86_400)).toBe('new');
    await doomed.close();

    const first = await Promise.all([pool.send(deliveries[0]!, 0), pool.send(deliveries[0]!, 1)]);
    expect(first).toEqual([409, 409]); // still in progress: the service retries later
    const check = await connectClient('redis', server.url);
    cleanup.push(() => check.close());
    await until(async () => (await check.command('EXISTS', 'partner-equity:webhook:msg_orphan_0')) === 0);
    expect(tally((await deliverTwice(pool, deliveries)).flat())).toMatchObject({ 204: 2 });
    expect(pool.log.runs.get('msg_orphan_0')).toBe(1);
  });
});
