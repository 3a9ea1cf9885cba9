import { sign } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { jwsSigningInput, type Signer } from '../../src/auth/signer.js';
import { AuthenticationError } from '../../src/core/errors/errors.js';
import { type Harness, startHarness } from './harness.js';

// When a refused assertion is sent again (once, freshly signed) and when the 401 reaches the caller: the
// 2 s bounds on clock drift and on an assertion's time in flight, and what counts as one exchange.

let harness: Harness | undefined;
afterEach(async () => {
  expect(harness?.server.unexpected).toEqual([]);
  await harness?.close();
  harness = undefined;
});

/**
 * A harness whose signer takes `signingMs` of simulated time per assertion (a slow KMS), so an assertion
 * ages on its way: its `iat` is read before signing, the server sees it `signingMs` later.
 */
async function slowSignerHarness(signingMs: number): Promise<Harness> {
  let advance: (ms: number) => void = () => {};
  const started = await startHarness({
    signer:
      (privateKey): Signer =>
      async (claims, header) => {
        advance(signingMs);
        const input = jwsSigningInput(header, claims);
        return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
      },
  });
  advance = (ms) => started.clock.advance(ms);
  return started;
}

const outcomes = (h: Harness) => h.server.tokenRequests.map((r) => r.outcome);

describe('an assertion refused after time in flight', () => {
  it('refused after more than 2 s on its way (a slow signer): sent again, freshly signed, and the call succeeds', async () => {
    harness = await slowSignerHarness(3000);
    harness.server.injectTokenFault({ status: 401 }, 'jwt');
    await expect(harness.info()).resolves.toBeDefined();
    expect(outcomes(harness)).toEqual([401, 201]);
    const [refused, accepted] = harness.server.tokenRequests;
    expect(accepted?.claims?.['jti']).not.toBe(refused?.claims?.['jti']);
    expect(harness.clock.sleeps).toEqual([]); // sent again at once, not after a backoff wait
  });

  it('refused after exactly 2 s on its way: not sent again, the 401 reaches the caller', async () => {
    harness = await slowSignerHarness(2000);
    harness.server.injectTokenFault({ status: 401 }, 'jwt');
    await expect(harness.info()).rejects.toBeInstanceOf(AuthenticationError);
    expect(outcomes(harness)).toEqual([401]);
  });

  it('sent again once per exchange: a second refusal after a retried 503 reaches the caller', async () => {
    harness = await slowSignerHarness(3000);
    const { server } = harness;
    server.injectTokenFault({ status: 401 }, 'jwt'); // aged: sent again at once
    server.injectTokenFault({ status: 503 }, 'jwt'); // the one sent again: retried after a backoff wait
    server.injectTokenFault({ status: 401 }, 'jwt'); // aged again: this time it is final
    await expect(harness.info()).rejects.toBeInstanceOf(AuthenticationError);
    expect(outcomes(harness)).toEqual([401, 503, 401]);
    expect(harness.clock.sleeps).toEqual([250]);
  });
});

describe("a refusal and the server's clock", () => {
  it('a 401 whose Date shows the server exactly 2 s ahead is not sent again (the bound is more than 2 s)', async () => {
    harness = await startHarness();
    const { server, clock } = harness;
    // Half a second into a second, so the whole-second Date header (read as +500 ms) shows exactly 2000 ms.
    clock.advance(500);
    server.aheadMs = 1500;
    server.injectTokenFault({ status: 401 }, 'jwt');
    await expect(harness.info()).rejects.toBeInstanceOf(AuthenticationError);
    expect(outcomes(harness)).toEqual([401]);
  });

  it('a 503 from a server 30 s ahead is retried after a backoff wait, not sent again at once; its Date corrects the clock', async () => {
    harness = await startHarness();
    const { server, clock } = harness;
    server.aheadMs = 30_000;
    server.injectTokenFault({ status: 503 }, 'jwt');
    await expect(harness.info()).resolves.toBeDefined();
    expect(outcomes(harness)).toEqual([503, 201]);
    expect(clock.sleeps).toEqual([250]);
    const accepted = server.tokenRequests[1];
    expect(
      Math.abs((accepted?.claims?.['iat'] as number) - Math.floor(server.now() / 1000)),
    ).toBeLessThanOrEqual(1);
  });

  it('the debug line of a retried token request names the route', async () => {
    harness = await startHarness();
    harness.server.injectTokenFault({ status: 503 }, 'jwt');
    await harness.info();
    expect(harness.logger.lines).toContainEqual(
      expect.stringMatching(/^debug POST \/v1\/oauth2\/tokens: retrying in 250ms /),
    );
  });
});
