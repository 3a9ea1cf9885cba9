// Security review of issue 36, finding 12: Redis frozen (SIGSTOP) while a receiver claims a webhook id. The
// claim times out in the store, but stays queued in the client and runs when Redis wakes (SIGCONT). It must
// not leave an `in_progress` key that no receiver owns: the service's retry has to run the handler, once.
// Driven by events: the store's own timeout, then a PING on the same connection (answered after whatever
// was queued before it).
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { RedisWebhookIdStore } from '../../src/redis/index.js';
import { connectClient, LIBRARIES, type TestClient } from './clients.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

describeWithRedis('a webhook claim that times out while Redis is frozen', () => {
  let server: RedisServer;
  let pid: number;
  let frozen = false;
  const clients: TestClient[] = [];
  const freeze = (on: boolean) => {
    process.kill(pid, on ? 'SIGSTOP' : 'SIGCONT');
    frozen = on;
  };
  beforeAll(async () => {
    server = await RedisServer.start();
    const probe = await connectClient('redis', server.url);
    const info = String(await probe.command('INFO', 'server'));
    pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    await probe.close();
  });
  afterEach(async () => {
    if (frozen) freeze(false);
    for (const client of clients.splice(0)) await client.close();
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const library of LIBRARIES) {
    it(`${library}: the late claim does not block the id; the retry after Redis wakes runs the handler once`, async () => {
      const receiver = await connectClient(library, server.url);
      const check = await connectClient('redis', server.url);
      clients.push(receiver, check);
      const store = new RedisWebhookIdStore({ client: receiver.client, commandTimeoutMs: 1000 });
      const id = `msg_late_${library}`;
      const key = `partner-equity:webhook:${id}`;

      // A receiver that has run a while: Redis knows the claim script (a cold one would answer NOSCRIPT).
      expect(await store.claim(`${id}_warm`, 86_400)).toBe('new');
      await store.release(`${id}_warm`);

      freeze(true);
      await expect(store.claim(id, 86_400)).rejects.toMatchObject({ code: 'redis_timeout' });
      freeze(false);
      // Everything the receiver's client queued before this PING has run once it answers.
      expect(await receiver.command('PING')).toBe('PONG');
      expect(await check.command('GET', key)).toBe(null);

      // The service retries: the handler runs (claimed `new`), once; a later copy is a duplicate.
      expect(await store.claim(id, 86_400)).toBe('new');
      await store.complete(id, 86_400);
      expect(await store.claim(id, 86_400)).toBe('done');
    });
  }
});
