import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../auth/harness.js';

/**
 * Finding 6 of the security review (issue 16): a token response announcing an absurd lifetime
 * (`expiresIn: Number.MAX_SAFE_INTEGER`) was believed — the token was never renewed ahead of time — and
 * `util.inspect(tokenManager)` threw `RangeError: Invalid time value`. Lifetimes are now capped at 24 h
 * (access) and 30 days (refresh).
 */
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const HOUR = 3_600_000;

describe('token lifetimes are capped', () => {
  it('renews a token announced for MAX_SAFE_INTEGER seconds at half of the 24 h cap; inspect never throws', async () => {
    harness = await startHarness({ expiresIn: Number.MAX_SAFE_INTEGER, random: () => 0.5 });
    const { server, clock, tokens } = harness;
    // Straight from the token manager: the test token server itself cannot date such a token.
    await tokens.getToken();
    expect(server.tokenRequests).toHaveLength(1);
    const shown = inspect(tokens);
    expect(shown).toContain('hasAccessToken: true');
    // The expiry shown is the capped one: 24 h from the exchange.
    const expiresAt = Date.parse(String(tokens.toJSON()['expiresAt']));
    expect(expiresAt - clock.now()).toBeLessThanOrEqual(24 * HOUR);
    expect(expiresAt - clock.now()).toBeGreaterThan(23 * HOUR);
    expect(() => JSON.stringify(tokens)).not.toThrow();

    clock.advance(11 * HOUR);
    await tokens.getToken();
    await harness.idle();
    expect(server.tokenRequests).toHaveLength(1);
    clock.advance(1 * HOUR + 60_000);
    await tokens.getToken(); // past 50% of the capped lifetime: a background renewal starts
    await harness.idle();
    expect(server.tokenRequests.map((request) => request.grant)).toEqual(['jwt', 'refresh']);
  });
});
