import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  BadRequestError,
  InternalServerError,
  PermissionDeniedError,
  RateLimitError,
} from '../../src/core/errors/errors.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { Ok, ok, bearerRequester as testRequester, unavailable } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

describe('retries', () => {
  it('makes 1 + maxRetries attempts, then surfaces the last error with the attempt count', async () => {
    server().reply(unavailable, unavailable, unavailable);
    const error = await testRequester(server().url)
      .request({ method: 'GET', path: '/v1/spv-requests', response: Ok })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, attempts: 3, code: 'unavailable' });
    expect(server().requests).toHaveLength(3);
  });

  it('recovers when a later attempt succeeds, and reports the attempts', async () => {
    server().reply({ status: 502, body: 'Bad Gateway' }, { status: 408 }, ok);
    const { data, response } = await testRequester(server().url)
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok })
      .withResponse();
    expect(data.ok).toBe(true);
    expect(response.attempts).toBe(3);
  });

  it('retries a dropped connection on a GET', async () => {
    server().reply('destroy', ok);
    await testRequester(server().url).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
    });
    expect(server().requests).toHaveLength(2);
  });

  it.each([
    [400, BadRequestError],
    [403, PermissionDeniedError],
  ])('never retries a %i', async (status, ErrorClass) => {
    server().reply({ status, body: { code: 'nope', detail: 'no', errorId: 'e' } });
    const error = await testRequester(server().url)
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(server().requests).toHaveLength(1);
  });

  it('honours maxRetries per call', async () => {
    server().reply(unavailable);
    await expect(
      testRequester(server().url).request({
        method: 'GET',
        path: '/v1/contracts',
        auth: 'optional',
        response: Ok,
        options: { maxRetries: 0 },
      }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(server().requests).toHaveLength(1);
  });
});

describe('backoff', () => {
  it('waits a full-jitter delay within [0, min(8 s, 0.5 s · 2^n)] before retry n', async () => {
    const clock = drivingClock();
    server().fallback(() => unavailable);
    await expect(
      testRequester(server().url, { clock, maxRetries: 7 }).request({
        method: 'GET',
        path: '/v1/contracts',
        auth: 'optional',
        response: Ok,
      }),
    ).rejects.toBeInstanceOf(InternalServerError);
    const ceilings = [500, 1000, 2000, 4000, 8000, 8000, 8000];
    expect(clock.waits).toHaveLength(ceilings.length);
    clock.waits.forEach((wait, n) => {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(ceilings[n] ?? 0);
    });
  });

  it('uses the injected jitter source: the bounds are reached exactly', async () => {
    const clock = drivingClock();
    server().fallback(() => unavailable);
    const retry = { ...DEFAULT_RETRY, random: () => 0.9999999 };
    await expect(
      testRequester(server().url, { clock, maxRetries: 6, retry }).request({
        method: 'GET',
        path: '/v1/contracts',
        auth: 'optional',
        response: Ok,
      }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(clock.waits).toEqual([499, 999, 1999, 3999, 7999, 7999]);

    const low = drivingClock();
    server().reply(unavailable, unavailable, ok);
    await testRequester(server().url, { clock: low, retry: { ...DEFAULT_RETRY, random: () => 0 } }).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
    });
    expect(low.waits).toEqual([0, 0]);
  });
});

describe('Retry-After', () => {
  it('waits the number of seconds the server asks for', async () => {
    const clock = drivingClock();
    server().reply({ status: 429, headers: { 'retry-after': '3' }, body: { code: 'rate_limited' } }, ok);
    await testRequester(server().url, { clock }).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
    });
    expect(clock.waits).toEqual([3000]);
  });

  it('waits until an HTTP date', async () => {
    const clock = drivingClock();
    const at = new Date(clock.now() + 5_000).toUTCString();
    server().reply({ status: 503, headers: { 'retry-after': at } }, ok);
    await testRequester(server().url, { clock }).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
    });
    expect(clock.waits).toEqual([5000]);
  });

  it('does not retry when the server asks for longer than maxRetryAfterMs', async () => {
    const clock = drivingClock();
    server().reply({
      status: 429,
      headers: { 'retry-after': '120' },
      body: { code: 'rate_limited', detail: 'slow down' },
    });
    const error = await testRequester(server().url, { clock })
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 120_000, attempts: 1 });
    expect(clock.waits).toEqual([]);
    expect(server().requests).toHaveLength(1);
  });

  it('follows a raised cap', async () => {
    const clock = drivingClock();
    server().reply({ status: 429, headers: { 'retry-after': '120' } }, ok);
    const retry = { ...DEFAULT_RETRY, maxRetryAfterMs: 300_000 };
    await testRequester(server().url, { clock, retry }).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
    });
    expect(clock.waits).toEqual([120_000]);
  });
});

describe('POST and idempotency keys', () => {
  it('never retries a POST without an Idempotency-Key (status or dropped connection)', async () => {
    server().reply(unavailable);
    await expect(
      testRequester(server().url).request({
        method: 'POST',
        path: '/v1/investors',
        json: { investors: [] },
        response: Ok,
      }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(server().requests).toHaveLength(1);

    server().reply('destroy');
    await expect(
      testRequester(server().url).request({
        method: 'POST',
        path: '/v1/investors',
        json: { investors: [] },
        response: Ok,
      }),
    ).rejects.toBeInstanceOf(APIConnectionError);
    expect(server().requests).toHaveLength(2);
  });

  it('retries a keyed POST and sends the same key and body on every attempt', async () => {
    server().reply(unavailable, 'destroy', { status: 201, body: { ok: true } });
    const { response } = await testRequester(server().url)
      .request({
        method: 'POST',
        path: '/v1/spv-requests',
        json: { templateId: 't1' },
        idempotencyKey: 'idem-123',
        response: Ok,
      })
      .withResponse();
    expect(response).toMatchObject({ attempts: 3, idempotencyKey: 'idem-123', status: 201 });
    const sent = server().requests;
    expect(sent).toHaveLength(3);
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual(['idem-123', 'idem-123', 'idem-123']);
    expect(new Set(sent.map((r) => r.text))).toEqual(new Set(['{"templateId":"t1"}']));
  });
});
