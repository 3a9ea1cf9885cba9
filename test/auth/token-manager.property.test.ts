import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importPrivateKey } from '../../src/auth/import-private-key.js';
import type { TokenEndpoint } from '../../src/auth/token-endpoint.js';
import { TokenManager } from '../../src/auth/token-manager.js';
import { APIConnectionError, APIError } from '../../src/core/errors/errors.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { ManualClock } from './manual-clock.js';

type RefreshFault = 'ok' | '401' | '503' | 'drop';

/**
 * An in-memory token endpoint (no sockets, so thousands of runs take a second) with refresh rotation and
 * reuse detection. Refresh grants fail as the scenario says; a JWT grant fails 0-3 times with 503: up to 2 the
 * manager's retries absorb, 3 loses the whole grant.
 */
function memoryEndpoint(clock: ManualClock, refreshFaults: RefreshFault[], jwtFailures: number[]) {
  const state = {
    presented: new Map<string, number>(),
    issued: new Map<string, number>(), // access token → expiry
    live: new Set<string>(), // unused refresh tokens
    inFlight: 0,
    /** JWT grants that failed on every attempt (3 × 503): only these may reach a caller. */
    jwtGrantsLost: 0,
    maxInFlight: 0,
    exchanges: 0,
  };
  let nextId = 0;
  let failedInARow = 0;
  const fail = (status: number) =>
    APIError.from({
      status,
      method: 'POST',
      path: '/v1/oauth2/tokens',
      headers: new Headers({ date: new Date(clock.now()).toUTCString() }),
      requestId: undefined,
      idempotencyKey: undefined,
      attempts: 1,
      body: { code: 'x', detail: 'scripted' },
      retryAfterMs: undefined,
    });
  const issue = () => {
    nextId += 1;
    state.issued.set(`at${nextId}`, clock.now() + 3600_000);
    state.live.add(`rt${nextId}`);
    const token = {
      accessToken: `at${nextId}`,
      refreshToken: `rt${nextId}`,
      tokenType: 'bearer',
      expiresIn: 3600,
      refreshExpiresIn: 2_592_000,
    };
    return { token, serverDate: clock.now() };
  };
  const endpoint: TokenEndpoint = async (form) => {
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    state.exchanges += 1;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      if (form['grant_type'] === 'refresh_token') {
        const presented = form['refresh_token'] as string;
        state.presented.set(presented, (state.presented.get(presented) ?? 0) + 1);
        const fault = refreshFaults.shift() ?? 'ok';
        if (fault === '503') throw fail(503);
        if (!state.live.delete(presented)) throw fail(401);
        if (fault === '401') throw fail(401);
        const result = issue();
        if (fault === 'drop')
          throw new APIConnectionError({
            method: 'POST',
            path: '/v1/oauth2/tokens',
            attempts: 1,
            idempotencyKey: undefined,
          });
        return result;
      }
      if ((jwtFailures[0] ?? 0) > 0) {
        jwtFailures[0] = (jwtFailures[0] as number) - 1;
        if (jwtFailures[0] === 0 && failedInARow === 2) {
          jwtFailures.shift();
          state.jwtGrantsLost += 1;
          failedInARow = 0;
        } else failedInARow += 1;
        throw fail(503);
      }
      failedInARow = 0;
      jwtFailures.shift();
      return issue();
    } finally {
      state.inFlight -= 1;
    }
  };
  return { endpoint, state };
}

const { privateKey } = generateKeyPairSync('ed25519');
const key = importPrivateKey(privateKey);

describe('TokenManager properties', () => {
  it('whatever the timing, jitter and refresh failures: one exchange at a time, no refresh token presented twice, never an expired token, errors only when every attempt failed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            advance: fc.integer({ min: 0, max: 2400_000 }),
            callers: fc.integer({ min: 1, max: 5 }),
          }),
          {
            minLength: 1,
            maxLength: 30,
          },
        ),
        fc.array(fc.constantFrom<RefreshFault>('ok', 'ok', '401', '503', 'drop'), { maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        async (steps, refreshFaults, jwtFailures, jitter) => {
          const clock = new ManualClock();
          const { endpoint, state } = memoryEndpoint(clock, [...refreshFaults], [...jwtFailures]);
          const manager = new TokenManager({
            identity: { issuer: 'https://i.example', clientId: 'c', audience: 'https://api.example' },
            sign: key,
            endpoint,
            clock,
            random: () => jitter,
            retry: { ...DEFAULT_RETRY, random: () => 0.5 },
          });
          for (const step of steps) {
            clock.advance(step.advance);
            const lostBefore = state.jwtGrantsLost;
            const results = await Promise.allSettled(
              Array.from({ length: step.callers }, () => manager.getToken()),
            );
            for (const result of results) {
              if (result.status === 'fulfilled')
                expect(state.issued.get(result.value)).toBeGreaterThan(clock.now());
              else {
                // A caller sees an error only when a whole JWT grant failed in this very step, and it is that 503.
                expect(state.jwtGrantsLost).toBeGreaterThan(lostBefore);
                expect(result.reason).toMatchObject({ status: 503 });
              }
            }
            while (state.inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
          }
          expect(state.maxInFlight).toBe(1);
          expect([...state.presented.values()].every((count) => count === 1)).toBe(true);
        },
      ),
      { numRuns: 300, seed: 20_261_128 },
    );
  });
});
