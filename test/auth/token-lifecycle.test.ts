import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError } from '../../src/core/errors/errors.js';
import { EVENTUALLY } from '../helpers/eventually.js';
import { type Harness, startHarness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  expect(harness?.server.unexpected).toEqual([]);
  await harness?.close();
  harness = undefined;
});

/** Seeded jitter (mulberry32), so a run is realistic yet repeatable. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('token lifecycle', () => {
  it('serves 1,000 concurrent first calls with exactly one token request', async () => {
    harness = await startHarness();
    const { server, info, tokens } = harness;
    // 1,000 calls queue on 64 sockets: on a busy machine the last waits more than the harness's 5 s timeout,
    // so each call gets a hang-sized one (this test is about the one token request, not about speed).
    const results = await Promise.all(Array.from({ length: 1000 }, () => info({ timeout: 120_000 })));
    expect(results).toHaveLength(1000);
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.apiCalls).toHaveLength(1000);
    // Every call carried the one token issued.
    expect(new Set(server.apiCalls.map((call) => call.token)).size).toBe(1);
    expect(server.apiCalls.every((call) => call.status === 200)).toBe(true);
    expect(await tokens.getToken()).toBe(server.apiCalls[0]?.token);
  });

  it('lets one caller stop waiting (its signal aborts) without cancelling the exchange the others share', async () => {
    harness = await startHarness();
    const { server, info, tokens } = harness;
    let release = () => {};
    server.injectTokenFault({ until: new Promise<void>((resolve) => (release = resolve)) });
    const controller = new AbortController();
    const impatient = tokens.getToken(controller.signal);
    const patient = Promise.all([info(), info()]);
    await vi.waitFor(() => expect(server.tokenRequests).toHaveLength(1), EVENTUALLY);
    controller.abort(new Error('user gave up'));
    await expect(impatient).rejects.toBeInstanceOf(APIUserAbortError);
    release();
    await expect(patient).resolves.toHaveLength(2);
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.apiCalls.map((c) => c.status)).toEqual([200, 200]);
  });

  it('runs 24 simulated hours of steady calls with 3600 s tokens in at most 49 token requests, no error, no refresh token seen twice', async () => {
    harness = await startHarness({ random: () => 0.5 });
    const { server, clock, info } = harness;
    const start = clock.now();
    while (clock.now() - start < 24 * HOUR) {
      await info(); // rejects (failing the test) on any caller-visible error
      await harness.idle(); // a renewal this call started in the background finishes before time moves on
      clock.advance(MINUTE);
    }
    expect(server.apiCalls).toHaveLength(1440);
    expect(server.apiCalls.every((call) => call.status === 200)).toBe(true);
    expect(server.tokenRequests.length).toBeLessThanOrEqual(49);
    expect(server.tokenRequests.length).toBeGreaterThanOrEqual(48);
    expect(server.tokenRequests.every((r) => r.outcome === 201)).toBe(true);
    // One assertion, then refresh grants only, each presenting a different refresh token exactly once.
    expect(server.tokenRequests.filter((r) => r.grant === 'jwt')).toHaveLength(1);
    expect([...server.refreshPresentations.values()].every((count) => count === 1)).toBe(true);
    expect(server.refreshPresentations.size).toBe(server.tokenRequests.length - 1);
  });

  it('keeps the same guarantees with realistic jitter: renewals between 45% and 55% of the lifetime', async () => {
    harness = await startHarness({ random: seeded(20300101) });
    const { server, clock, info } = harness;
    const start = clock.now();
    while (clock.now() - start < 24 * HOUR) {
      await info();
      await harness.idle();
      clock.advance(MINUTE);
    }
    const times = server.tokenRequests.map((r) => r.serverTime);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(0.45 * HOUR);
      expect(gap).toBeLessThanOrEqual(0.55 * HOUR + MINUTE); // + the call interval
    }
    expect(new Set(gaps).size).toBeGreaterThanOrEqual(4); // jittered (to the minute the next call comes), not lock-step
    expect(server.tokenRequests.length).toBeLessThanOrEqual(Math.ceil((24 * HOUR) / (0.45 * HOUR)) + 1);
    expect(server.apiCalls.every((call) => call.status === 200)).toBe(true);
    expect([...server.refreshPresentations.values()].every((count) => count === 1)).toBe(true);
  });

  it('renews in the background at the jittered half-life, serving the current token meanwhile', async () => {
    harness = await startHarness({ random: () => 0 }); // the earliest point: 45% of 3600 s = 1620 s
    const { server, clock, tokens } = harness;
    const first = await tokens.getToken();
    clock.advance(1619_000);
    expect(await tokens.getToken()).toBe(first);
    expect(server.tokenRequests).toHaveLength(1);

    clock.advance(1000);
    // The renewal starts now, but this caller does not wait for it.
    expect(await tokens.getToken()).toBe(first);
    expect(await tokens.getToken()).toBe(first); // and a second caller does not start another
    await vi.waitFor(
      () => expect(server.tokenRequests.map((r) => r.outcome)).toEqual([201, 201]),
      EVENTUALLY,
    );
    expect(server.tokenRequests[1]?.grant).toBe('refresh');
    const second = await tokens.getToken();
    expect(second).not.toBe(first);
    expect(server.secrets).toContain(second);
  });

  it('keeps serving the current token while background renewals fail, and blocks only in the last 60 s', async () => {
    harness = await startHarness();
    const { server, clock, tokens, logger } = harness;
    const obtainedAt = clock.now();
    const first = await tokens.getToken();
    // The next 7 exchanges fail: a refresh, then an assertion and its 2 retries, then another assertion + 2.
    for (let i = 0; i < 7; i++) server.injectTokenFault({ status: 503 });
    clock.advance(1800_000);
    expect(await tokens.getToken()).toBe(first);
    await vi.waitFor(
      () => expect(logger.lines.some((l) => l.startsWith('warn Access token renewal failed'))).toBe(true),
      EVENTUALLY,
    );
    expect(server.tokenRequests.map((r) => r.grant)).toEqual(['jwt', 'refresh', 'jwt', 'jwt', 'jwt']);
    // Right after a failure, callers do not hammer the endpoint: the next try waits 10 s…
    expect(await tokens.getToken()).toBe(first);
    expect(server.tokenRequests).toHaveLength(5);
    // …and happens in the background again, the caller still served at once.
    clock.advance(11_000);
    expect(await tokens.getToken()).toBe(first);
    await vi.waitFor(
      () => expect(logger.lines.filter((l) => l.startsWith('warn')).length).toBe(2),
      EVENTUALLY,
    );
    expect(server.tokenRequests).toHaveLength(8);
    expect(server.tokenRequests.slice(1).every((r) => r.outcome === 503)).toBe(true);

    // With less than 60 s left, a caller waits for the new token (the server has recovered by then).
    clock.advance(obtainedAt + 3541_000 - clock.now());
    const fresh = await tokens.getToken();
    expect(fresh).not.toBe(first);
    expect(server.tokenRequests.at(-1)).toMatchObject({ grant: 'jwt', outcome: 201 });
    expect(logger.lines.join('\n')).not.toContain(first);
  });
});
