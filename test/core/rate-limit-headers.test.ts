import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/rate-limit/rate-limiter.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { bearerRequester, Ok, ok } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

function paced() {
  const clock = drivingClock();
  const logger = memoryLogger();
  const rateLimiter = new RateLimiter({ key: 'client_1', clock, logger });
  const requester = bearerRequester(server().url, { clock, rateLimiter, logger });
  const get = () => requester.request({ method: 'GET', path: '/v1/spv-requests', response: Ok });
  return { clock, logger, get };
}

describe('what the limiter learns from', () => {
  it.each([
    ['X-RateLimit-*', { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' }],
    [
      'RateLimit-* (older draft)',
      { 'ratelimit-limit': '5', 'ratelimit-remaining': '0', 'ratelimit-reset': '2' },
    ],
    ['RateLimit and RateLimit-Policy', { 'ratelimit-policy': '"p";q=5;w=1', ratelimit: '"p";r=0;t=2' }],
  ])('%s with nothing left: the next request waits for the reset', async (_form, headers) => {
    server().reply({ ...ok, headers }, ok);
    const { clock, get } = paced();
    await get();
    await get();
    expect(clock.waits).toEqual([2000]);
    expect(server().requests).toHaveLength(2);
  });

  it('X-RateLimit-Reset as an epoch second', async () => {
    const { clock, get } = paced();
    const reset = String(Math.floor(clock.now() / 1000) + 3);
    server().reply(
      {
        ...ok,
        headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      },
      ok,
    );
    await get();
    await get();
    expect(clock.waits[0]).toBeGreaterThan(2000);
    expect(clock.waits[0]).toBeLessThanOrEqual(3000);
  });

  it('a bare 429 (no Retry-After, no headers): retried with backoff, then the pace is cut', async () => {
    server().reply({ status: 429, body: { code: 'rate_limited' } }, ok, ok, ok);
    const { clock, get, logger } = paced();
    await get();
    await get();
    await get();
    expect(server().requests).toHaveLength(4);
    // After throttling the client sends at most one request per interval of the cut rate.
    expect(clock.waits.length).toBeGreaterThanOrEqual(2);
    expect(logger.text()).toContain('rate limit: pacing requests (throttled)');
  });

  it('answers without any of these headers leave the client unpaced', async () => {
    server().reply(ok, ok, ok, ok);
    const { clock, get, logger } = paced();
    await get();
    await Promise.all([get(), get(), get()]);
    expect(clock.waits).toEqual([]);
    expect(logger.text()).not.toContain('rate limit');
  });

  it('says in debug lines when requests start and stop waiting their turn', async () => {
    server().reply(
      { ...ok, headers: { 'ratelimit-policy': '"p";q=1;w=1', ratelimit: '"p";r=0;t=1' } },
      ok,
      ok,
    );
    const { get, logger } = paced();
    await get();
    await Promise.all([get(), get()]);
    const lines = logger.lines.filter((line) => line.message.startsWith('rate limit'));
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['debug', 'rate limit: pacing requests (1 per 1000 ms)'],
      ['debug', 'rate limit: 2 request(s) waiting their turn'],
      ['debug', 'rate limit: no request waiting any more'],
    ]);
  });
});
