import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster.js';
import { describeWithRedis, RedisServer } from './redis-server.js';

const HOUR = 3_600_000;
const STEP = 5 * 60_000;

describeWithRedis('many instances share one token chain through Redis', () => {
  let server: RedisServer;
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await cluster?.close();
    await server?.stop();
  });

  it('20 instances over 24 simulated hours of 3600 s tokens: at most 49 exchanges, no refresh token presented twice, no error', async () => {
    cluster = await startCluster({ redisUrl: server.url, size: 20 });
    await cluster.callAll(); // all start together: one exchange, the others wait for it
    await cluster.run((24 * HOUR) / STEP, STEP);

    const stats = cluster.tokenStats();
    expect(cluster.failures).toEqual([]);
    expect(cluster.apiUnauthorized()).toBe(0);
    expect(stats.refreshPresentedTwice).toBe(0);
    // One assertion to start the chain, then one refresh grant per renewal: due at 50–55% of 3600 s and run
    // by the first call after that (calls come every 5 min), so 1800–2280 s apart.
    expect(stats.assertionGrants).toBe(1);
    expect(stats.exchanges).toBeLessThanOrEqual(49);
    expect(stats.exchanges).toBeGreaterThanOrEqual(1 + Math.floor((24 * HOUR) / (2280 * 1000)));
    expect(stats.refreshGrants).toBe(stats.exchanges - 1);
    console.info(`20 instances × 24 h: ${stats.exchanges} exchanges (${stats.refreshGrants} refresh grants)`);

    // A 401 renews only while the refused token is still the shared one: revoke every token, let all 20
    // instances hit the 401 at once; one renews (its refresh grant is refused: the chain is revoked; then a
    // new assertion), the others pick up the new token.
    const before = cluster.fake.tokenRequests.length;
    cluster.fake.admin.revokeTokens();
    await cluster.callAll();
    expect(cluster.failures).toEqual([]);
    expect(cluster.apiUnauthorized()).toBe(20);
    const after = cluster.fake.tokenRequests
      .slice(before)
      .map((request) => [request.grantType, request.status]);
    expect(after).toEqual([
      ['refresh_token', 401],
      ['urn:ietf:params:oauth:grant-type:jwt-bearer', 201],
    ]);
  }, 240_000); // 6,000 calls and their Redis round trips: about 20 s beside another test, minutes on a busy runner
});
