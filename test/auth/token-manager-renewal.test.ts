// Issue 27 (test strength): when the TokenManager renews, what it presents, and what it logs.
import { describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { TokenManager } from '../../src/auth/token-manager.js';
import type { TokenStore } from '../../src/auth/token-store.js';
import { PermissionDeniedError } from '../../src/core/errors/errors.js';
import { ManualClock } from './manual-clock.js';
import { flush, HOUR, manager, memoryEndpoint, signer } from './memory-token-endpoint.js';

describe('TokenManager renewal', () => {
  it('after a failed background renewal, callers are served the current token and the next try waits 10 s', async () => {
    const { clock, tokens, calls, failures, logger } = manager();
    expect(await tokens.getToken()).toBe('at1');
    // The refresh grant and the three attempts of the assertion that follows all fail.
    failures.push(503, 503, 503, 503);
    clock.advance(HOUR / 2); // the renewal point (random 0.5: exactly 50%)
    expect(await tokens.getToken()).toBe('at1');
    expect(tokens.currentToken()).toBe('at1'); // a second caller while the renewal runs starts nothing
    await flush();
    expect(calls.map((c) => c.grant)).toEqual(['jwt', 'refresh', 'jwt', 'jwt', 'jwt']);
    expect(logger.lines.filter((l) => l.startsWith('warn'))).toEqual([
      'warn Access token renewal failed; the current token is still used {"error":"InternalServerError","status":503,"code":"scripted"}',
    ]);
    const failedAt = clock.now();
    for (const wait of [1, 5_000, 9_999]) {
      clock.advance(failedAt + wait - clock.now());
      expect(await tokens.getToken()).toBe('at1');
      await flush();
      expect(calls).toHaveLength(5);
    }
    clock.advance(1); // exactly 10 s after the failure
    expect(await tokens.getToken()).toBe('at1');
    await flush();
    expect(calls.slice(5)).toEqual([{ grant: 'jwt', refreshToken: undefined, at: failedAt + 10_000 }]);
    expect(await tokens.getToken()).toBe('at2');
  });

  it('logs a failed refresh at debug by kind only, then uses a new assertion', async () => {
    const { clock, tokens, calls, failures, logger } = manager();
    await tokens.getToken();
    failures.push(Object.assign(new Error('socket hang up rt1'), { code: 'ECONNRESET' }));
    clock.advance(HOUR - 30_000); // inside the last minute: the caller waits
    expect(await tokens.getToken()).toBe('at2');
    expect(calls.map((c) => c.grant)).toEqual(['jwt', 'refresh', 'jwt']);
    expect(logger.lines).toContain(
      'debug Refresh grant failed; using a new assertion {"error":"Error","code":"ECONNRESET"}',
    );
    expect(logger.lines.join('\n')).not.toContain('rt1');
  });

  it('describes a thrown non-error by its type in the log', async () => {
    const { clock, tokens, failures, logger } = manager();
    await tokens.getToken();
    failures.push('a string');
    clock.advance(HOUR - 30_000);
    expect(await tokens.getToken()).toBe('at2');
    expect(logger.lines).toContain('debug Refresh grant failed; using a new assertion {"error":"string"}');
  });

  it('a 403 on the refresh grant reaches the caller, with no fallback assertion', async () => {
    const { clock, tokens, calls, failures } = manager();
    await tokens.getToken();
    failures.push(403);
    clock.advance(HOUR - 30_000);
    await expect(tokens.getToken()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(calls.map((c) => c.grant)).toEqual(['jwt', 'refresh']);
  });

  it('an answer without a refresh token stores none: the renewal uses a new assertion, never "undefined"', async () => {
    const { clock, tokens, calls, logger } = manager({ refreshToken: null });
    await tokens.getToken();
    expect(tokens.toJSON()).toMatchObject({ hasAccessToken: true, hasRefreshToken: false });
    clock.advance(HOUR / 2);
    await tokens.getToken();
    await flush();
    expect(calls.map((c) => [c.grant, c.refreshToken])).toEqual([
      ['jwt', undefined],
      ['jwt', undefined],
    ]);
    expect(logger.lines).toEqual([]); // no refresh grant was attempted, so none failed
    expect(await tokens.getToken()).toBe('at2');
  });

  it('an expired refresh token is not presented: the renewal uses a new assertion', async () => {
    // Renewal at exactly 50% of the hour (1800 s); the refresh token lives 1800 s, so it has just expired.
    const { clock, tokens, calls } = manager({ refreshExpiresIn: 1800 });
    await tokens.getToken();
    clock.advance(HOUR / 2);
    await tokens.getToken();
    await flush();
    expect(calls.map((c) => c.grant)).toEqual(['jwt', 'jwt']);
    expect(tokens.toJSON()).toMatchObject({ hasRefreshToken: true });
  });

  it('a refresh token is presented up to its last millisecond', async () => {
    const { clock, tokens, calls } = manager({ refreshExpiresIn: 1801 });
    await tokens.getToken();
    clock.advance(HOUR / 2);
    await tokens.getToken();
    await flush();
    expect(calls.map((c) => [c.grant, c.refreshToken])).toEqual([
      ['jwt', undefined],
      ['refresh', 'rt1'],
    ]);
  });

  it('believes a refresh token for 30 days at most, whatever the server announces', async () => {
    const { clock, tokens, calls } = manager({ refreshExpiresIn: 10 * 365 * 86_400 });
    await tokens.getToken();
    clock.advance(30 * 24 * HOUR);
    await tokens.getToken();
    expect(calls.map((c) => c.grant)).toEqual(['jwt', 'jwt']);
  });

  it('blocks callers for the last quarter of a lifetime shorter than 4 minutes', async () => {
    // A 120 s token: callers are served it until 90 s (120 - 120/4), then wait for a new one.
    const served = manager({ expiresIn: 120 });
    await served.tokens.getToken();
    served.clock.advance(89_999);
    expect(served.tokens.currentToken()).toBe('at1');
    const blocked = manager({ expiresIn: 120 });
    await blocked.tokens.getToken();
    blocked.clock.advance(90_000);
    expect(blocked.tokens.currentToken()).toBeUndefined();
    expect(await blocked.tokens.getToken()).toBe('at2');
  });

  it('spreads the renewal point ±10% around half the lifetime with its jitter source', async () => {
    for (const [random, renewAt] of [
      [0, 1_620_000],
      [0.75, 1_890_000],
    ] as const) {
      const { clock, tokens, calls } = manager({}, () => random);
      await tokens.getToken();
      clock.advance(renewAt - 1);
      expect(tokens.currentToken()).toBe('at1');
      await flush();
      expect(calls).toHaveLength(1);
      clock.advance(1);
      expect(tokens.currentToken()).toBe('at1');
      await flush();
      expect(calls).toHaveLength(2);
    }
  });

  it('with a shared store, jitter only delays the renewal: never before 50% of the lifetime', async () => {
    for (const [random, renewAt] of [
      [0, 1_800_000],
      [0.5, 1_890_000],
    ] as const) {
      const { clock, tokens, calls } = manager({}, () => random, new MemoryTokenStore());
      await tokens.getToken();
      clock.advance(renewAt - 1);
      tokens.currentToken();
      await flush();
      expect(calls).toHaveLength(1);
      clock.advance(1);
      tokens.currentToken();
      await flush();
      expect(calls).toHaveLength(2);
    }
  });

  it('while another instance holds the renewal lease, serves the current token and asks the store again only after 2 s', async () => {
    const memory = new MemoryTokenStore();
    const leases: number[] = [];
    const clock = new ManualClock();
    // The store the partner shares, counting lease requests (each one a Redis round trip in production).
    const store: TokenStore = {
      read: (scope) => memory.read(scope),
      lease: (scope) => {
        leases.push(clock.now());
        return memory.lease(scope);
      },
      takeRefreshToken: (scope, generation) => memory.takeRefreshToken(scope, generation),
      write: (scope, tokens, previous) => memory.write(scope, tokens, previous),
    };
    let release = () => {};
    let hold: Promise<void> | undefined;
    const api = memoryEndpoint(clock, {
      get hold() {
        return hold;
      },
    });
    const build = () =>
      new TokenManager({
        identity: { issuer: 'https://i.example', clientId: 'c', audience: 'https://api.example' },
        sign: signer,
        endpoint: api.endpoint,
        clock,
        random: () => 0,
        store,
      });
    const [a, b] = [build(), build()];
    expect(await a.getToken()).toBe('at1');
    expect(await b.getToken()).toBe('at1'); // read from the store
    hold = new Promise<void>((resolve) => (release = resolve));
    clock.advance(HOUR / 2);
    expect(a.currentToken()).toBe('at1'); // a takes the lease and renews
    await flush();
    expect(api.calls).toHaveLength(2);
    const before = leases.length;
    expect(b.currentToken()).toBe('at1'); // b finds the lease taken
    await flush();
    expect(leases).toHaveLength(before + 1);
    clock.advance(1_999);
    expect(b.currentToken()).toBe('at1');
    await flush();
    expect(leases).toHaveLength(before + 1);
    clock.advance(1);
    expect(b.currentToken()).toBe('at1');
    await flush();
    expect(leases).toHaveLength(before + 2);
    release();
    await flush();
    expect(api.calls).toHaveLength(2);
  });

  it('surfaces a token grant refused with a Retry-After over the cap at once, with or without a logger', async () => {
    const clock = new ManualClock();
    const api = memoryEndpoint(clock);
    const tokens = new TokenManager({
      identity: { issuer: 'https://i.example', clientId: 'c', audience: 'https://api.example' },
      sign: signer,
      endpoint: api.endpoint,
      clock,
    });
    api.failures.push({ status: 429, retryAfterMs: 120_000 });
    await expect(tokens.getToken()).rejects.toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(api.calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});
