import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_ID, type Harness, ISSUER, startHarness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  expect(harness?.server.unexpected).toEqual([]);
  await harness?.close();
  harness = undefined;
});

describe('the assertions the SDK sends', () => {
  it('are verified by the server with node:crypto and carry each required claim', async () => {
    harness = await startHarness({ keyId: 'key-2030-01' });
    const { server, clock, info } = harness;
    await info();

    const [first] = server.tokenRequests;
    // The server verified the Ed25519 signature and every rule with node:crypto before answering 201.
    expect(first?.outcome).toBe(201);
    expect(first?.rejection).toBeUndefined();
    const header = first?.header ?? {};
    expect(header['alg']).toBe('EdDSA');
    expect(header['typ']).toBe('JWT');
    expect(header['kid']).toBe('key-2030-01');
    expect(Object.keys(header).sort()).toEqual(['alg', 'kid', 'typ']);

    const claims = first?.claims ?? {};
    const nowSeconds = Math.floor(clock.now() / 1000);
    expect(claims['iss']).toBe(ISSUER);
    expect(claims['sub']).toBe(CLIENT_ID);
    expect(claims['client_id']).toBe(CLIENT_ID);
    expect(claims['aud']).toBe(server.baseUrl); // exactly the configured baseUrl, no trailing slash added
    expect(claims['iat']).toBe(nowSeconds);
    expect(claims['exp']).toBe(nowSeconds + 60);
    expect(claims['jti']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Object.keys(claims).sort()).toEqual(['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'sub']);
  });

  it('use a new jti and the current time for every assertion', async () => {
    harness = await startHarness();
    const { server, clock, info } = harness;
    await info();
    server.injectTokenFault({ status: 401 }, 'refresh'); // forces the next renewal onto a new assertion
    clock.advance(3600_000);
    await info();

    const assertions = server.tokenRequests.filter((r) => r.grant === 'jwt');
    expect(assertions).toHaveLength(2);
    expect(assertions[0]?.claims?.['jti']).not.toBe(assertions[1]?.claims?.['jti']);
    expect(assertions[1]?.claims?.['iat']).toBe((assertions[0]?.claims?.['iat'] as number) + 3600);
  });

  it("can name the algorithm 'Ed25519' (RFC 9864) for servers that want the fully-specified name", async () => {
    harness = await startHarness({ algorithm: 'Ed25519' });
    await harness.info();
    expect(harness.server.tokenRequests[0]?.header?.['alg']).toBe('Ed25519');
    expect(harness.server.tokenRequests[0]?.outcome).toBe(201);
  });
});
