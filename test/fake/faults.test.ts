import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import { EVENTUALLY } from '../helpers/eventually.js';
import { idem, spvBody, startFake } from './helpers.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

async function setup() {
  const started = await startFake();
  fake = started.fake;
  return started;
}

describe('fault injection', () => {
  it('answers a status with Retry-After for the next N matching requests, then behaves again', async () => {
    const { call, token } = await setup();
    const fault = fake.faults.inject({
      match: { method: 'GET', path: '/v1/spv-requests' },
      status: 503,
      retryAfter: 2,
      times: 2,
    });
    for (let i = 0; i < 2; i++) {
      const reply = await call('GET', '/v1/spv-requests', { token });
      expect(reply.status).toBe(503);
      expect(reply.headers.get('retry-after')).toBe('2');
      expect(reply.body).toMatchObject({ code: 'service_unavailable', errorId: expect.any(String) });
    }
    expect((await call('GET', '/v1/spv-requests', { token })).status).toBe(200);
    expect(fault.hits).toBe(2);
    expect(fault.remaining).toBe(0);
    expect(fake.requests.filter((r) => r.fault === 'status')).toHaveLength(2);
  });

  it('matches by method and RegExp path; Retry-After may be an HTTP date; 429 is rate_limited', async () => {
    const { call, token } = await setup();
    const date = new Date(fake.clock.now() + 5_000).toUTCString();
    fake.faults.inject({
      match: { method: 'post', path: /^\/v1\/spv-requests/ },
      status: 429,
      retryAfter: date,
    });
    expect((await call('GET', '/v1/spv-requests', { token })).status).toBe(200);
    const limited = await call('POST', '/v1/spv-requests', { token, headers: idem(), json: spvBody() });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe(date);
    expect(fake.admin.snapshot().spvRequests).toHaveLength(0);
  });

  it("drop 'before' loses the request unprocessed: the client sees a network error and nothing changed", async () => {
    const { call, token } = await setup();
    fake.faults.inject({ match: { path: '/v1/spv-requests' }, drop: 'before' });
    const headers = idem();
    await expect(call('POST', '/v1/spv-requests', { token, headers, json: spvBody() })).rejects.toThrow(
      TypeError,
    );
    expect(fake.admin.snapshot().spvRequests).toHaveLength(0);
    expect(fake.webhooks.events).toHaveLength(0);
    const retry = await call('POST', '/v1/spv-requests', { token, headers, json: spvBody() });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it("drop 'after' processes the request and loses the response: a retry with the same key gets the replay", async () => {
    const { call, token } = await setup();
    fake.faults.inject({ match: { method: 'POST', path: '/v1/spv-requests' }, drop: 'after' });
    const headers = idem();
    await expect(call('POST', '/v1/spv-requests', { token, headers, json: spvBody() })).rejects.toThrow(
      TypeError,
    );
    const [held] = fake.admin.snapshot().spvRequests;
    expect(held).toBeDefined();
    expect(fake.webhooks.events).toHaveLength(1);
    const retry = await call('POST', '/v1/spv-requests', { token, headers, json: spvBody() });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(held);
    expect(fake.requests.map((r) => r.fault ?? null).slice(-2)).toEqual(['drop-after', null]);
  });

  it('delayMs holds a processed response for real milliseconds; a client timeout gives up first', async () => {
    const { call, token } = await setup();
    fake.faults.inject({ match: { path: '/v1/spv-requests' }, delayMs: 40 });
    const started = performance.now();
    expect((await call('GET', '/v1/spv-requests', { token })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    fake.faults.inject({ match: { path: '/v1/spv-requests' }, delayMs: Number.POSITIVE_INFINITY });
    const headers = idem();
    const giveUp = new AbortController();
    const held = call('POST', '/v1/spv-requests', {
      token,
      headers: { ...headers },
      json: spvBody(),
      signal: giveUp.signal,
    });
    // The client gives up once the fake has processed the request (an event, not a guess in milliseconds).
    await vi.waitFor(() => expect(fake.admin.snapshot().spvRequests).toHaveLength(1), EVENTUALLY);
    giveUp.abort();
    await expect(held).rejects.toThrow();
    expect(fake.admin.snapshot().spvRequests).toHaveLength(1);
    expect(
      (await call('POST', '/v1/spv-requests', { token, headers, json: spvBody() })).headers.get(
        'idempotent-replayed',
      ),
    ).toBe('true');
  });

  it('close() ends responses held forever', async () => {
    const { call, token } = await setup();
    fake.faults.inject({ match: { path: '/v1/oauth2/info' }, delayMs: Number.POSITIVE_INFINITY });
    const pending = call('GET', '/v1/oauth2/info', { token }).then(
      (reply) => reply.status,
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await fake.close();
    expect(['failed', 200]).toContain(await pending);
  });

  it('rejects specs that could never do anything', async () => {
    await setup();
    expect(() => fake.faults.inject({ match: { path: '/' } })).toThrow(TypeError);
    expect(() => fake.faults.inject({ status: 200 })).toThrow(RangeError);
    expect(() => fake.faults.inject({ status: 500, times: 0 })).toThrow(RangeError);
  });
});

describe('fault matching: exact, prefix and RegExp, and no silent misses', () => {
  it('refuses an exact path no route can match, and says that path is exact', async () => {
    await setup();
    expect(() => fake.faults.inject({ match: { path: '/v1/spvs' }, status: 503 })).toThrow(
      /no route of the fake matches any method \/v1\/spvs \(match\.path is exact; .* use match\.pathPrefix '\/v1\/spvs\/' or a RegExp\)/,
    );
    expect(() =>
      fake.faults.inject({ match: { method: 'DELETE', path: '/v1/investors' }, status: 503 }),
    ).toThrow(/no route of the fake matches DELETE \/v1\/investors/);
    expect(() => fake.faults.inject({ match: { pathPrefix: '/v2/' }, status: 503 })).toThrow(
      /no route of the fake has a path starting \/v2\//,
    );
    expect(fake.faults.pending()).toEqual([]);
  });

  it('a prefix fires on every path under it; pending() lists what has not fired yet', async () => {
    const { call, token } = await setup();
    const spv = await call('POST', '/v1/spvs/spv_unknown/subscriptions', {
      token,
      json: { subscriptions: [] },
    });
    expect(spv.status).not.toBe(503);
    fake.faults.inject({ match: { pathPrefix: '/v1/spvs/' }, status: 503, times: 2 });
    fake.faults.inject({ match: { method: 'POST', path: '/v1/investors' }, status: 500 });
    expect(fake.faults.pending().map((f) => f.description)).toEqual([
      '/v1/spvs/* 503 x2',
      'POST /v1/investors 500 x1',
    ]);
    const failed = await call('POST', '/v1/spvs/spv_unknown/subscriptions', {
      token,
      json: { subscriptions: [] },
    });
    expect(failed.status).toBe(503);
    expect(fake.faults.pending()).toMatchObject([
      { description: '/v1/spvs/* 503 x1', hits: 1, remaining: 1 },
      { description: 'POST /v1/investors 500 x1', hits: 0, remaining: 1 },
    ]);
  });

  it('reads faults as the mock CLI and the admin API write them', async () => {
    const { parseFault } = await import('../../src/testing/index.js');
    expect(parseFault('POST /v1/investors 503 x2 retry-after=1')).toEqual({
      match: { method: 'POST', path: '/v1/investors' },
      status: 503,
      times: 2,
      retryAfter: 1,
    });
    expect(parseFault('/v1/spvs/* 500')).toEqual({ match: { pathPrefix: '/v1/spvs/' }, status: 500 });
    expect(parseFault('GET re:^/v1/spv-requests/ drop=after')).toEqual({
      match: { method: 'GET', path: /^\/v1\/spv-requests\// },
      drop: 'after',
    });
    expect(
      parseFault('{"match":{"method":"POST","pathPattern":"^/v1/investors$"},"status":503,"times":2}'),
    ).toEqual({ match: { method: 'POST', path: /^\/v1\/investors$/ }, status: 503, times: 2 });
    expect(() => parseFault('POST /v1/investors 503 twice')).toThrow(/cannot read 'twice'/);
  });
});
