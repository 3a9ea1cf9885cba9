import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PartnerEquity } from '../../src/client.js';
import { PermissionDeniedError } from '../../src/core/errors/errors.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { drivingClock } from '../helpers/driving-clock.js';

let fake: FakePartnerEquity | undefined;
let client: PartnerEquity | undefined;
afterEach(async () => {
  await client?.close();
  await fake?.close();
  client = undefined;
  fake = undefined;
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function start(provisioned = true) {
  fake = new FakePartnerEquity();
  await fake.listen();
  const { baseUrl, clientId, issuer, privateKey } = await fake.createPartner({ provisioned });
  // The client's backoff waits advance the fake's clock, as time would pass for a real caller.
  const clock = drivingClock(fake.clock);
  client = new PartnerEquity({ baseUrl, clientId, issuer, privateKey, clock, logLevel: 'off' });
  return { fake, client };
}

/** Each refresh token the fake saw, and how many times it was presented. */
function presentations(fake: FakePartnerEquity): number[] {
  const counts = new Map<string, number>();
  for (const r of fake.tokenRequests) {
    if (r.refreshToken !== undefined) counts.set(r.refreshToken, (counts.get(r.refreshToken) ?? 0) + 1);
  }
  return [...counts.values()];
}

describe('against the fake Partner Equity API', () => {
  it('24 simulated hours of steady calls: at most 49 token requests, no error, no refresh token presented twice', async () => {
    const { fake, client } = await start();
    const start_ = fake.clock.now();
    let calls = 0;
    while (fake.clock.now() - start_ < 24 * HOUR) {
      await client.oauth.info();
      calls += 1;
      await fake.clock.advance(2 * MINUTE);
    }
    expect(calls).toBe(720);
    expect(fake.tokenRequests.length).toBeLessThanOrEqual(49);
    expect(fake.tokenRequests.every((r) => r.status === 201)).toBe(true);
    expect(presentations(fake).every((count) => count === 1)).toBe(true);
  });

  it('recovers from a server clock 30 s ahead, then from a 503 on a refresh and a lost assertion answer', async () => {
    const { fake, client } = await start();
    const tokenCalls = () =>
      fake.requests.filter((r) => r.path === '/v1/oauth2/tokens').map((r) => [r.status, r.fault ?? '']);
    fake.clockOffsetMs = 30_000;
    await client.oauth.info(); // refused for skew → re-signed with the server's time from the Date header
    expect(tokenCalls()).toEqual([
      [401, ''],
      [201, ''],
    ]);

    await fake.clock.advance(HOUR - 30_000); // inside the last minute: the next call waits for a new token
    fake.faults.inject({ match: { path: '/v1/oauth2/tokens' }, status: 503 }); // on the refresh
    fake.faults.inject({ match: { path: '/v1/oauth2/tokens' }, drop: 'after' }); // on the assertion
    await client.oauth.info();
    expect(tokenCalls().slice(2)).toEqual([
      [503, 'status'], // the refresh: that refresh token is now burned, whatever the server did
      [201, 'drop-after'], // a new assertion, processed but its answer lost
      [201, ''], // retried after a backoff wait with another new assertion
    ]);
    expect(presentations(fake).every((count) => count === 1)).toBe(true);
  });

  it('a client that is not provisioned gets PermissionDeniedError at once: no retry, no renewal', async () => {
    const { fake, client } = await start(false);
    const list = client._requester.request({
      method: 'GET',
      path: '/v1/spv-requests',
      response: z.looseObject({}),
    });
    await expect(list).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(fake.requests.map((r) => [r.path, r.status])).toEqual([
      ['/v1/oauth2/tokens', 201],
      ['/v1/spv-requests', 403],
    ]);
  });
});
