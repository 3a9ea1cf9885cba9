import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESENDS } from '../../src/core/request/retry-policy.js';
import { RateLimitError } from '../../src/index.js';
import { type LimitedFake, limitedFake } from './rate-limit-harness.js';

// The retry loop is the one place a request is sent again: a 429 that says when to come back skips the
// retry count, but the re-sends are few and their waits stay within maxRateLimitWait.
let env: LimitedFake;
afterEach(() => env.close());

const INFO = /^\/v1\/oauth2\/info$/;
const sent = () => env.fake.requests.filter((request) => INFO.test(request.path)).length;

describe('a 429 re-sent by the retry loop', () => {
  it('Retry-After: 0 answered forever ends in a few requests and RateLimitError, with maxRetries: 0', async () => {
    env = await limitedFake({});
    const client = env.client({ maxRetries: 0 });
    await env.drive(client.oauth.info());
    const before = sent();
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 0, times: 500 });
    const { value, elapsedMs } = await env.drive(client.oauth.info().catch((error: unknown) => error));
    expect(value).toBeInstanceOf(RateLimitError);
    expect(value).toMatchObject({ status: 429, attempts: 1 + MAX_RESENDS });
    expect(sent() - before).toBe(1 + MAX_RESENDS);
    expect(elapsedMs).toBeLessThanOrEqual(60_000);
  });

  it('429s that ask for a second forever end within maxRateLimitWait on the fake clock', async () => {
    env = await limitedFake({});
    const client = env.client({ maxRetries: 0, maxRateLimitWait: 2500 });
    await env.drive(client.oauth.info());
    const before = sent();
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 1, times: 500 });
    const { value, elapsedMs } = await env.drive(client.oauth.info().catch((error: unknown) => error));
    expect(value).toBeInstanceOf(RateLimitError);
    expect((value as RateLimitError).waitedMs).toBeLessThanOrEqual(2500);
    expect(elapsedMs).toBeLessThanOrEqual(2500);
    expect(sent() - before).toBe(3);
  });

  it('honest 429s with Retry-After go through without using a retry', async () => {
    env = await limitedFake({});
    const client = env.client({ maxRetries: 0 });
    await env.drive(client.oauth.info());
    const before = sent();
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 1, times: 3 });
    const { value, elapsedMs } = await env.drive(client.oauth.info().withResponse());
    expect(value.response.attempts).toBe(4);
    expect(elapsedMs).toBeGreaterThanOrEqual(3000);
    expect(sent() - before).toBe(4);
  });

  it('a 503 after a paced 429 still uses a retry (none left with maxRetries: 0)', async () => {
    env = await limitedFake({});
    const client = env.client({ maxRetries: 0 });
    await env.drive(client.oauth.info());
    const before = sent();
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 1, times: 1 });
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 503, times: 1 });
    const { value } = await env.drive(client.oauth.info().catch((error: unknown) => error));
    expect(value).toMatchObject({ status: 503, attempts: 2 });
    expect(sent() - before).toBe(2);
  });
});

describe('a turn the limiter refuses', () => {
  it('is a RateLimitError that says nothing was sent, not "→ 429"', async () => {
    env = await limitedFake({ rateLimit: '1/s' });
    const client = env.client({ maxRetries: 0, maxRateLimitWait: 100 });
    await env.drive(client.oauth.info());
    await env.fake.clock.advance(1000);
    const before = sent();
    const calls = Array.from({ length: 3 }, () => client.oauth.info().catch((error: unknown) => error));
    const { value } = await env.drive(Promise.all(calls));
    const refused = value.filter((result): result is RateLimitError => result instanceof RateLimitError);
    // One goes in this second; the others would wait past 100 ms for theirs.
    expect(refused).toHaveLength(2);
    expect(sent() - before).toBe(1);
    for (const error of refused) {
      expect(error.message).not.toContain('→');
      expect(error.message).toMatch(/^GET \/v1\/oauth2\/info: not sent \(rate limit\)/);
      expect(error.attempts).toBe(0);
    }
  });
});
