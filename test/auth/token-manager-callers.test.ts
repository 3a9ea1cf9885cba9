// Issue 27 (test strength): TokenManager callers: aborted signals, 401s, the clock, what it shows.
import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APIUserAbortError } from '../../src/core/errors/errors.js';
import { flush, HOUR, manager } from './memory-token-endpoint.js';

describe('TokenManager callers', () => {
  it('getToken with an already-aborted signal rejects at once, and no exchange is started', async () => {
    const { tokens, calls } = manager();
    const reason = new Error('caller gave up');
    const error = await tokens.getToken(AbortSignal.abort(reason)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe(reason);
    expect((error as APIUserAbortError).message).toBe(
      'POST /v1/oauth2/tokens: request aborted by the caller',
    );
    await flush();
    expect(calls).toEqual([]);
    // The next caller starts the first exchange.
    expect(await tokens.getToken()).toBe('at1');
    expect(calls.map((c) => c.grant)).toEqual(['jwt']);
  });

  it('onUnauthorized with an already-aborted signal drops the refused token but starts no exchange', async () => {
    const { tokens, calls } = manager();
    expect(await tokens.getToken()).toBe('at1');
    await expect(tokens.onUnauthorized('at1', AbortSignal.abort())).rejects.toBeInstanceOf(APIUserAbortError);
    await flush();
    expect(calls).toHaveLength(1);
    expect(tokens.currentToken()).toBeUndefined();
    expect(await tokens.getToken()).toBe('at2');
  });

  it('reports what it holds in toJSON, and nothing it does not', async () => {
    const { clock, tokens } = manager();
    expect(tokens.toJSON()).toEqual({
      clientId: 'c',
      audience: 'https://api.example',
      hasAccessToken: false,
      hasRefreshToken: false,
      expiresAt: undefined,
      clockOffsetMs: 0,
    });
    const startedAt = clock.now();
    await tokens.getToken();
    expect(tokens.toJSON()).toMatchObject({
      hasAccessToken: true,
      hasRefreshToken: true,
      expiresAt: new Date(startedAt + HOUR).toISOString(),
    });
  });

  it('a 401 for the current token replaces it before resolving; one for an older token renews nothing', async () => {
    const { clock, tokens, calls, failures } = manager();
    await tokens.getToken();
    await expect(tokens.onUnauthorized('at1', new AbortController().signal)).resolves.toBe(true);
    expect(tokens.currentToken()).toBe('at2');
    await expect(tokens.onUnauthorized('at1')).resolves.toBe(true);
    expect(tokens.currentToken()).toBe('at2');
    expect(calls).toHaveLength(2);
    // Nor does it cut short the back-off after a failed background renewal.
    failures.push(503, 503, 503, 503);
    clock.advance(HOUR / 2);
    tokens.currentToken();
    await flush();
    expect(calls).toHaveLength(6);
    await tokens.onUnauthorized('at1');
    expect(tokens.currentToken()).toBe('at2');
    await flush();
    expect(calls).toHaveLength(6);
    await tokens.onUnauthorized('at2');
    expect(tokens.currentToken()).toBe('at3');
  });

  it("learns the server's clock from the Date of a token answer", async () => {
    const { tokens } = manager({ serverAheadMs: 30_000 });
    await tokens.getToken();
    // The Date header has whole seconds: the offset is taken at the middle of the second.
    expect(tokens.clockOffsetMs).toBe(30_500);
    expect(tokens.toJSON()).toMatchObject({ clockOffsetMs: 30_500 });
  });

  it("leaves no listener on the caller's signal once the token is there", async () => {
    let release = () => {};
    const { tokens } = manager({ hold: new Promise<void>((resolve) => (release = resolve)) });
    const controller = new AbortController();
    const token = tokens.getToken(controller.signal);
    await flush();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    release();
    expect(await token).toBe('at1');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('stops a caller waiting on an exchange when its signal aborts, and the exchange goes on for others', async () => {
    let release = () => {};
    const { tokens, calls } = manager({ hold: new Promise<void>((resolve) => (release = resolve)) });
    const controller = new AbortController();
    const impatient = tokens.getToken(controller.signal);
    const patient = tokens.getToken();
    controller.abort(new Error('enough'));
    await expect(impatient).rejects.toMatchObject({ name: 'APIUserAbortError', cause: new Error('enough') });
    release();
    expect(await patient).toBe('at1');
    expect(calls).toHaveLength(1);
  });

  it('shows only harmless facts when inspected', async () => {
    const { tokens } = manager();
    await tokens.getToken();
    const shown = inspect(tokens, { depth: Number.POSITIVE_INFINITY, showHidden: true });
    expect(shown).toMatch(/^TokenManager /);
    expect(shown).toContain('hasAccessToken: true');
    expect(shown).not.toContain('at1');
    expect(shown).not.toContain('rt1');
  });
});
