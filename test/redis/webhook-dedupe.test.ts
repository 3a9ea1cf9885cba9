import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, RedisServer } from './redis-server.js';
import { deliverTwice, makeDeliveries, type Pool, startPool, tally } from './webhook-pool.js';

describeWithRedis('webhook deliveries de-duplicated across 20 receivers sharing Redis', () => {
  let server: RedisServer;
  let pool: Pool | undefined;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await pool?.close();
    await server?.stop();
  });

  it('1,000 deliveries, each sent twice at once to two receivers: every handler runs exactly once per id', async () => {
    pool = await startPool({ redisUrl: server.url, size: 20 });
    const deliveries = await makeDeliveries('msg_once', 1000);
    const rounds = await deliverTwice(pool, deliveries);

    for (const { id } of deliveries) {
      expect(pool.log.runs.get(id), id).toBe(1);
      expect(pool.log.successes.get(id), id).toBe(1);
    }
    const first = tally(rounds[0] ?? []);
    // Each pair: one copy handled (204), the other a duplicate (204 once done) or in progress (409, retried).
    expect((first[204] ?? 0) + (first[409] ?? 0)).toBe(2000);
    expect(first[204]).toBeGreaterThanOrEqual(1000);
    expect(
      rounds
        .slice(1)
        .flat()
        .every((status) => status === 204),
    ).toBe(true); // retries: duplicates of done ids
    expect(pool.storeErrors).toEqual([]);
    console.info(`first round ${JSON.stringify(first)}; ${rounds.length} rounds`);
    await pool.close();
    pool = undefined;
  });

  it('with a handler that fails once per id: the retry runs it once more, then never again', async () => {
    pool = await startPool({ redisUrl: server.url, size: 20, failFirstRun: true });
    const deliveries = await makeDeliveries('msg_fail_once', 1000);
    const rounds = await deliverTwice(pool, deliveries);

    for (const { id } of deliveries) {
      expect(pool.log.runs.get(id), id).toBe(2);
      expect(pool.log.successes.get(id), id).toBe(1);
    }
    const all = tally(rounds.flat());
    expect(all[500]).toBe(1000); // one failed run per id, answered 500 so the service retries
    // A further retry of any copy, later: a duplicate, acknowledged without running anything.
    const again = await deliverTwice(pool, deliveries.slice(0, 100));
    expect(tally(again.flat())).toEqual({ 204: 200 });
    expect([...pool.log.runs.values()].every((runs) => runs === 2)).toBe(true);
    console.info(`statuses ${JSON.stringify(all)}; ${rounds.length} rounds`);
  });
});
