import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, PermissionDeniedError } from '../../src/core/errors/errors.js';
import { type Harness, startHarness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  expect(harness?.server.unexpected).toEqual([]);
  await harness?.close();
  harness = undefined;
});

const HOUR = 3600_000;

/** Redeems a refresh token behind the SDK's back, as an attacker (or a second process) holding a copy would. */
async function redeemElsewhere(baseUrl: string, refreshToken: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/oauth2/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('recovery without a caller-visible error', () => {
  it('a reused refresh token (401, chain revoked): falls back to a new assertion; the stale access token is replaced after one 401', async () => {
    harness = await startHarness();
    const { server, clock, info } = harness;
    await info();
    // Someone else redeems the SDK's refresh token first: when the SDK presents it, the server sees reuse,
    // answers 401 and revokes the whole chain, including the access token the SDK still holds.
    expect(await redeemElsewhere(server.baseUrl, server.lastRefreshToken as string)).toBe(201);
    clock.advance(HOUR - 30_000); // inside the last 60 s: the caller waits for the exchange

    await expect(info()).resolves.toBeDefined();
    const grants = server.tokenRequests.map((r) => [r.grant, r.outcome, r.rejection ?? '']);
    expect(grants).toEqual([
      ['jwt', 201, ''],
      ['refresh', 201, ''], // the redemption elsewhere
      ['refresh', 401, 'refresh token reused; chain revoked'], // the SDK's one presentation
      ['jwt', 201, ''], // how it recovered: a new assertion, a new chain
    ]);
    expect(server.apiCalls.map((c) => c.status)).toEqual([200, 200]);
  });

  it('a reused refresh token during background renewal: the caller holding the revoked token gets one 401, handled inside the SDK', async () => {
    harness = await startHarness();
    const { server, clock, info } = harness;
    await info();
    await redeemElsewhere(server.baseUrl, server.lastRefreshToken as string);
    clock.advance(HOUR / 2);
    // The caller is served the current (now revoked) token at once while the renewal runs; the API's 401
    // makes the SDK wait for the renewal (or run it) and retry the call once with the new token.
    await expect(info()).resolves.toBeDefined();
    await expect(info()).resolves.toBeDefined();
    expect(server.apiCalls.map((c) => c.status)).toEqual([200, 401, 200, 200]);
    expect(server.tokenRequests.filter((r) => r.grant === 'jwt' && r.outcome === 201)).toHaveLength(2);
  });

  it('a dropped refresh response: that refresh token counts as burned, the SDK uses a new assertion and never presents it again', async () => {
    harness = await startHarness();
    const { server, clock, info } = harness;
    await info();
    const burned = server.lastRefreshToken as string;
    server.injectTokenFault({ drop: true }, 'refresh'); // the server rotates, then the connection dies
    clock.advance(HOUR - 30_000);

    await expect(info()).resolves.toBeDefined();
    expect(server.tokenRequests.map((r) => [r.grant, r.outcome])).toEqual([
      ['jwt', 201],
      ['refresh', 'dropped'],
      ['jwt', 201], // how it recovered
    ]);
    expect(server.refreshPresentations.get(burned)).toBe(1);

    // Later renewals use the new chain; the token issued in the lost answer was never seen by the SDK.
    clock.advance(HOUR - 30_000);
    await info();
    expect(server.tokenRequests.at(-1)).toMatchObject({ grant: 'refresh', outcome: 201 });
    expect([...server.refreshPresentations.values()].every((count) => count === 1)).toBe(true);
  });

  it('a dropped refresh followed by an outage: the outage surfaces once, the burned refresh token is still never presented again', async () => {
    harness = await startHarness();
    const { server, clock, info } = harness;
    await info();
    const burned = server.lastRefreshToken as string;
    server.injectTokenFault({ drop: true }, 'refresh');
    for (let i = 0; i < 3; i++) server.injectTokenFault({ status: 503 }, 'jwt');
    clock.advance(HOUR - 30_000);
    await expect(info()).rejects.toMatchObject({ status: 503 });
    await expect(info()).resolves.toBeDefined(); // the next call: a new assertion, not the burned token
    expect(server.tokenRequests.map((r) => [r.grant, r.outcome])).toEqual([
      ['jwt', 201],
      ['refresh', 'dropped'],
      ['jwt', 503],
      ['jwt', 503],
      ['jwt', 503],
      ['jwt', 201],
    ]);
    expect(server.refreshPresentations.get(burned)).toBe(1);
  });

  it('a server clock 30 s ahead: the first assertion is refused, the offset is learned from the Date header, the second is accepted and later ones are right first time', async () => {
    harness = await startHarness();
    const { server, clock, info, tokens } = harness;
    server.aheadMs = 30_000;

    await expect(info()).resolves.toBeDefined();
    expect(server.tokenRequests.map((r) => [r.outcome, r.rejection ?? ''])).toEqual([
      [401, 'iat skew'],
      [201, ''], // how it recovered: re-signed with iat from the server's clock
    ]);
    const [refused, accepted] = server.tokenRequests;
    expect(refused?.claims?.['iat']).toBe(Math.floor(clock.now() / 1000));
    expect(
      Math.abs((accepted?.claims?.['iat'] as number) - Math.floor(server.now() / 1000)),
    ).toBeLessThanOrEqual(1);
    expect(accepted?.claims?.['jti']).not.toBe(refused?.claims?.['jti']);
    expect(Math.abs(tokens.clockOffsetMs - 30_000)).toBeLessThanOrEqual(1000);

    // The offset is kept: a later assertion (forced by a refused refresh) is accepted at once.
    server.injectTokenFault({ status: 401 }, 'refresh');
    clock.advance(HOUR - 30_000);
    await info();
    expect(server.tokenRequests.slice(2).map((r) => [r.grant, r.outcome])).toEqual([
      ['refresh', 401],
      ['jwt', 201],
    ]);
  });

  it('an assertion refused while the clocks agree is not re-sent: the 401 reaches the caller', async () => {
    harness = await startHarness();
    const { server, info } = harness;
    server.injectTokenFault({ status: 401 }, 'jwt');
    await expect(info()).rejects.toBeInstanceOf(AuthenticationError);
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.apiCalls).toHaveLength(0);
  });

  it('a 503 from the token endpoint: retried after a backoff wait with a NEW assertion (new jti)', async () => {
    harness = await startHarness();
    const { server, clock, info } = harness;
    server.injectTokenFault({ status: 503 }, 'jwt');
    await expect(info()).resolves.toBeDefined();
    const [failed, retried] = server.tokenRequests;
    expect([failed?.outcome, retried?.outcome]).toEqual([503, 201]);
    expect(retried?.claims?.['jti']).not.toBe(failed?.claims?.['jti']);
    expect(clock.sleeps).toEqual([250]); // full jitter of the first 500 ms step, jitter fixed at 0.5
  });

  it('a 503 with Retry-After: waits as asked, then succeeds', async () => {
    harness = await startHarness();
    const { server, clock, info } = harness;
    server.injectTokenFault({ status: 503, retryAfter: '3' }, 'jwt');
    server.injectTokenFault({ drop: true }, 'jwt'); // and a lost answer on the retry: retried again
    await expect(info()).resolves.toBeDefined();
    expect(server.tokenRequests.map((r) => r.outcome)).toEqual([503, 'dropped', 201]);
    expect(clock.sleeps).toEqual([3000, 500]);
    expect(new Set(server.tokenRequests.map((r) => r.claims?.['jti'])).size).toBe(3);
  });

  it('gives up after maxRetries and surfaces the last error', async () => {
    harness = await startHarness();
    const { server, info } = harness;
    for (let i = 0; i < 3; i++) server.injectTokenFault({ status: 503 }, 'jwt');
    await expect(info()).rejects.toMatchObject({ status: 503 });
    expect(server.tokenRequests).toHaveLength(3);
  });
});

describe('what is never retried', () => {
  it('a 403 from the token endpoint (not provisioned) is thrown at once', async () => {
    harness = await startHarness();
    const { server, info } = harness;
    server.injectTokenFault({ status: 403 }, 'jwt');
    await expect(info()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('a 403 on a refresh is thrown too, without a fallback assertion', async () => {
    harness = await startHarness();
    const { server, clock, info } = harness;
    await info();
    server.injectTokenFault({ status: 403 }, 'refresh');
    clock.advance(HOUR - 30_000);
    await expect(info()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(server.tokenRequests.map((r) => r.grant)).toEqual(['jwt', 'refresh']);
  });

  it('a 403 from an API call is not retried and renews nothing', async () => {
    harness = await startHarness();
    const { server, info } = harness;
    await info();
    server.apiFaults.push(403);
    await expect(info()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(server.apiCalls).toHaveLength(2);
    expect(server.tokenRequests).toHaveLength(1);
  });
});

describe('a 401 from an API call', () => {
  it('renews the token once and retries the call once: the caller sees the answer', async () => {
    harness = await startHarness();
    const { server, info } = harness;
    await info();
    server.apiFaults.push(401);
    await expect(info()).resolves.toBeDefined();
    expect(server.apiCalls.map((c) => c.status)).toEqual([200, 401, 200]);
    expect(server.apiCalls[2]?.token).not.toBe(server.apiCalls[1]?.token);
    expect(server.tokenRequests.map((r) => [r.grant, r.outcome])).toEqual([
      ['jwt', 201],
      ['refresh', 201],
    ]);
  });

  it('a second consecutive 401 becomes an AuthenticationError, with no loop', async () => {
    harness = await startHarness();
    const { server, info } = harness;
    await info();
    server.apiFaults.push(401, 401);
    const error = await info().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, path: '/v1/oauth2/info' });
    expect(server.apiCalls.map((c) => c.status)).toEqual([200, 401, 401]);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('many calls failing with the same token share one renewal; a token already replaced renews nothing', async () => {
    harness = await startHarness();
    const { server, info, tokens } = harness;
    const first = await tokens.getToken();
    server.revokeAccessToken(first);
    await Promise.all(Array.from({ length: 20 }, () => info()));
    expect(server.apiCalls.filter((c) => c.status === 401)).toHaveLength(20);
    expect(server.apiCalls.filter((c) => c.status === 200)).toHaveLength(20);
    expect(server.tokenRequests).toHaveLength(2);

    // A late report about the old token changes nothing: a newer token exists.
    await expect(tokens.onUnauthorized(first)).resolves.toBe(true);
    expect(server.tokenRequests).toHaveLength(2);
  });
});
