// Issue 27 (test strength): the retry rules a partner meets at their edges — a plain 500, every form of
// Retry-After a server may send, jitter sources out of range, the deadline boundary, and what is logged.
import { describe, expect, it } from 'vitest';
import {
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
} from '../../src/core/errors/errors.js';
import { backoffDelay, DEFAULT_RETRY, parseRetryAfter } from '../../src/core/request/retry-policy.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { Ok, ok, bearerRequester as testRequester, unavailable } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const get = { method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok } as const;
/** Backoff with a fixed jitter of 0.5: the first wait is 250 ms, so a wait of 250 means "no Retry-After". */
const HALF = { ...DEFAULT_RETRY, random: () => 0.5 };
const NOW = Date.UTC(2025, 0, 1);

describe('what is retried', () => {
  it('retries a plain 500 like any other 5xx', async () => {
    server().reply({ status: 500, body: { code: 'internal', detail: 'boom', errorId: 'e' } }, ok);
    const { response } = await testRequester(server().url).request(get).withResponse();
    expect(response.attempts).toBe(2);
    expect(server().requests).toHaveLength(2);
  });

  it('surfaces a 500 that persists after the retries, with the attempt count', async () => {
    server().fallback(() => ({ status: 500, body: { code: 'internal', detail: 'boom', errorId: 'e' } }));
    const error = await testRequester(server().url)
      .request(get)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 500, attempts: 3 });
  });

  it('does not retry an answer that fails its schema: the server did answer, and would again', async () => {
    server().reply({ status: 200, body: { ok: 'yes' } });
    await expect(testRequester(server().url).request(get)).rejects.toBeInstanceOf(ResponseValidationError);
    expect(server().requests).toHaveLength(1);
  });

  it('does not retry a 4xx other than 408 and 429 (a 499 from a proxy)', async () => {
    server().reply({ status: 499, body: { code: 'client_closed', detail: 'closed', errorId: 'e' } });
    await expect(testRequester(server().url).request(get)).rejects.toMatchObject({ status: 499 });
    expect(server().requests).toHaveLength(1);
  });
});

describe('Retry-After, as the server sends it', () => {
  it.each([
    ['1.5', 1500],
    ['0.25', 250],
    ['2', 2000],
    ['0', 0], // the server asks for an immediate retry: honoured, not mistaken for junk
    ['soon', 250],
    ['-1', 250],
    ['1e3', 250],
    ['1.', 250],
    ['.5', 250],
    ['x1', 250],
    ['1x', 250],
    ['2025-01-01T00:00:05Z', 250], // ISO 8601 is not an HTTP date
  ])('Retry-After %j: the wait before the retry is %i ms', async (header, wait) => {
    const clock = drivingClock();
    server().reply({ status: 503, headers: { 'retry-after': header }, body: unavailable.body }, ok);
    await testRequester(server().url, { clock, retry: HALF }).request(get);
    expect(clock.waits).toEqual([wait]);
    expect(server().requests).toHaveLength(2);
  });

  it('waits until an HTTP date, and not at all for one in the past', async () => {
    const clock = drivingClock();
    const ahead = new Date(clock.now() + 7_000).toUTCString();
    const past = new Date(clock.now() - 60_000).toUTCString();
    server().reply(
      { status: 503, headers: { 'retry-after': ahead }, body: unavailable.body },
      { status: 503, headers: { 'retry-after': past }, body: unavailable.body },
      ok,
    );
    await testRequester(server().url, { clock, retry: HALF }).request(get);
    expect(clock.waits).toEqual([7_000, 0]);
  });

  it('reports what it read on the error: a number of ms, or undefined for junk (never NaN)', async () => {
    for (const [header, expected] of [
      ['1.5', 1500],
      ['soon', undefined],
      ['1e3', undefined],
      ['-1', undefined],
    ] as const) {
      server().reply({ status: 429, headers: { 'retry-after': header }, body: { code: 'rate_limited' } });
      const error = await testRequester(server().url, { maxRetries: 0 })
        .request(get)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfterMs).toBe(expected);
    }
  });

  it('parses delay-seconds and HTTP dates exactly', () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter(' 3 ', NOW)).toBe(3000);
    expect(parseRetryAfter('12', NOW)).toBe(12_000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
    expect(parseRetryAfter('1.0005', NOW)).toBe(1001); // rounded to whole ms
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:09 GMT', NOW)).toBe(9000);
    expect(parseRetryAfter('wed, 01 jan 2025 00:00:09 gmt', NOW)).toBe(9000); // names in any case
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', NOW)).toBe(0);
    for (const junk of ['soon', '-1', '1e3', '+1', '0x10', 'x1', '1x', '1.', '.5', 'Infinity', 'NaN'])
      expect(parseRetryAfter(junk, NOW), junk).toBeUndefined();
    // A date without a weekday or month name is refused, so a stray number never parses as one.
    expect(parseRetryAfter('2025-01-01T00:00:05Z', NOW)).toBeUndefined();
    expect(parseRetryAfter('2025 01 01', NOW)).toBeUndefined();
  });
});

describe('backoff waits', () => {
  it('clamps a jitter source outside [0, 1) to the bounds instead of waiting negative or past the ceiling', () => {
    expect(backoffDelay(0, { ...DEFAULT_RETRY, random: () => 1.7 })).toBe(500);
    expect(backoffDelay(2, { ...DEFAULT_RETRY, random: () => 5 })).toBe(2000);
    expect(backoffDelay(1, { ...DEFAULT_RETRY, random: () => -0.5 })).toBe(0);
    expect(backoffDelay(10, { ...DEFAULT_RETRY, random: () => 0.5 })).toBe(4000); // capped at 8 s
    expect(backoffDelay(1, { ...DEFAULT_RETRY, random: () => 0.3 })).toBe(300);
  });
});

describe('the deadline boundary', () => {
  // A 2.5 s wait (first retry, jitter 0.5 of a 5 s initial delay) against deadlines either side of it.
  const slow = { ...DEFAULT_RETRY, initialDelayMs: 5_000, random: () => 0.5 };

  it('does not retry when the wait would end exactly at the deadline', async () => {
    const clock = drivingClock();
    server().reply(unavailable);
    const error = await testRequester(server().url, { clock, retry: slow, deadline: 2_500 })
      .request(get)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, attempts: 1 });
    expect(clock.waits).toEqual([]);
  });

  it('retries when the wait ends before the deadline', async () => {
    const clock = drivingClock();
    server().reply(unavailable, ok);
    await testRequester(server().url, { clock, retry: slow, deadline: 5_000 }).request(get);
    expect(clock.waits).toEqual([2_500]);
  });
});

describe('the deadline and the caller end the retries', () => {
  it('does not retry an attempt cut short by the deadline', async () => {
    const clock = drivingClock();
    server().reply('hang');
    // The deadline runs in real time; 400 ms lets the request reach the server on a loaded machine.
    const error = await testRequester(server().url, { clock, retry: HALF, deadline: 400 })
      .request(get)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'APITimeoutError', scope: 'deadline', attempts: 1 });
    expect(clock.waits).toEqual([]);
    expect(server().requests).toHaveLength(1);
  });

  it('an abort during a backoff wait ends the call with the abort reason as cause', async () => {
    const clock = drivingClock(undefined, { hold: true });
    server().reply(unavailable);
    const controller = new AbortController();
    const call = testRequester(server().url, { clock, retry: HALF }).request({
      ...get,
      options: { signal: controller.signal },
    });
    expect(await clock.nextSleep()).toBe(250);
    const reason = new Error('user gave up');
    controller.abort(reason);
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'APIUserAbortError', cause: reason });
    expect(server().requests).toHaveLength(1);
  });
});

describe('what the debug log says about retries', () => {
  it('names the wait and the reason of each retry', async () => {
    const logger = memoryLogger();
    server().reply(unavailable, ok);
    await testRequester(server().url, { logger, retry: HALF }).request(get);
    expect(logger.lines).toContainEqual({
      level: 'debug',
      message: 'GET /v1/contracts: retrying in 250ms',
      fields: { reason: expect.stringContaining('try later') },
    });
  });

  it('says why it did not retry: a Retry-After over the cap, or the deadline', async () => {
    const logger = memoryLogger();
    server().reply({ status: 429, headers: { 'retry-after': '61' }, body: { code: 'rate_limited' } });
    await expect(testRequester(server().url, { logger }).request(get)).rejects.toBeInstanceOf(RateLimitError);
    expect(logger.text()).toContain('GET /v1/contracts: Retry-After 61000ms is over the cap; not retrying');

    server().reply(unavailable);
    await expect(
      testRequester(server().url, {
        logger,
        retry: { ...HALF, initialDelayMs: 5_000 },
        deadline: 2_500,
      }).request(get),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(logger.text()).toContain('GET /v1/contracts: the next attempt would pass the deadline');
  });

  it('retries a Retry-After exactly at the cap', async () => {
    const clock = drivingClock();
    server().reply({ status: 429, headers: { 'retry-after': '60' }, body: { code: 'rate_limited' } }, ok);
    await testRequester(server().url, { clock }).request(get);
    expect(clock.waits).toEqual([60_000]);
  });
});
