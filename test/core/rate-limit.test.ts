import { afterEach, describe, expect, it } from 'vitest';
import { APIUserAbortError, RateLimitError } from '../../src/index.js';
import { spvBody } from '../helpers/spv-body.js';
import { type LimitedFake, limitedFake } from './rate-limit-harness.js';

let env: LimitedFake;
afterEach(() => env.close());

const GET = /^\/v1\/spv-requests\/[^/]+$/;

/** One SPV request to read, then a quiet second so the batch starts with a fresh window. */
async function oneSpvRequest(client: ReturnType<LimitedFake['client']>): Promise<string> {
  const body = await env.drive(spvBody(client));
  const created = await env.drive(client.spvRequests.create(body.value));
  await env.fake.clock.advance(1000);
  return created.value.spvRequestSlug;
}

function settled<T>(calls: Promise<T>[]) {
  return Promise.all(
    calls.map((call) =>
      call.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
    ),
  );
}

describe('pacing against a 10/s per-client limit', () => {
  it('40 concurrent GETs all succeed within 1.5x the 3 s floor, without a 429', async () => {
    env = await limitedFake();
    const client = env.client();
    const slug = await oneSpvRequest(client);
    const { value, elapsedMs } = await env.drive(
      settled(Array.from({ length: 40 }, () => client.spvRequests.get(slug))),
    );
    expect(value.filter((result) => 'error' in result)).toEqual([]);
    expect(elapsedMs).toBeGreaterThanOrEqual(3000);
    expect(elapsedMs).toBeLessThanOrEqual(4500);
    expect(env.statuses(GET)).toEqual({ limited: 0, ok: 40 });
  });

  it('without pacing (rateLimit: false) the same batch fails some calls, as before', async () => {
    env = await limitedFake();
    const client = env.client({ rateLimit: false });
    const slug = await oneSpvRequest(client);
    const { value } = await env.drive(
      settled(Array.from({ length: 40 }, () => client.spvRequests.get(slug))),
    );
    const failed = value.filter((result) => 'error' in result);
    // 10 per window: 10 pass, 30 wait the 1 s Retry-After, 10 pass… and the last 10 run out of retries.
    expect(failed).toHaveLength(10);
    expect(failed.every((result) => result.error instanceof RateLimitError)).toBe(true);
    expect(env.statuses(GET)).toEqual({ limited: 60, ok: 30 });
  });

  it('learns the limit on first contact: one request goes first, the rest follow at the pace it announced', async () => {
    env = await limitedFake();
    const client = env.client();
    const { value, elapsedMs } = await env.drive(
      settled(Array.from({ length: 25 }, () => client.oauth.info())),
    );
    expect(value.filter((result) => 'error' in result)).toEqual([]);
    expect(env.statuses(/^\/v1\/oauth2\/info$/)).toEqual({ limited: 0, ok: 25 });
    expect(elapsedMs).toBeLessThanOrEqual(3000); // 1.5x the 2 s floor
  });
});

describe('a 429 that says when to come back', () => {
  it('is sent again then, without using a retry', async () => {
    env = await limitedFake({});
    const client = env.client({ maxRetries: 0 });
    await env.drive(client.oauth.info());
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 2, times: 2 });
    const { value, elapsedMs } = await env.drive(client.oauth.info().withResponse());
    expect(value.response.attempts).toBe(3);
    expect(elapsedMs).toBeGreaterThanOrEqual(4000);
    expect(env.statuses(/^\/v1\/oauth2\/info$/)).toEqual({ limited: 2, ok: 2 });
  });

  it('past maxRateLimitWait the call throws RateLimitError saying how long it waited', async () => {
    env = await limitedFake({});
    const client = env.client({ maxRateLimitWait: 5000 });
    await env.drive(client.oauth.info());
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 3, times: 5 });
    const { value } = await env.drive(client.oauth.info().catch((error: unknown) => error));
    expect(value).toBeInstanceOf(RateLimitError);
    expect(value).toMatchObject({ status: 429, waitedMs: 3000, retryAfterMs: 3000 });
    expect((value as Error).message).toMatch(/gave up after waiting 3000 ms for the rate limit/);
    expect(env.statuses(/^\/v1\/oauth2\/info$/).limited).toBe(2);
  });

  it('a Retry-After longer than the call will wait fails that call only, not the ones after it', async () => {
    env = await limitedFake({});
    const client = env.client();
    await env.drive(client.oauth.info());
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 3600 });
    const { value } = await env.drive(client.oauth.info().catch((error: unknown) => error));
    expect(value).toMatchObject({ status: 429, waitedMs: 0, retryAfterMs: 3_600_000 });
    const { elapsedMs } = await env.drive(client.oauth.info());
    expect(elapsedMs).toBeLessThan(5000);
  });

  it('the per-call maxRateLimitWait overrides the client’s', async () => {
    env = await limitedFake({});
    const client = env.client();
    await env.drive(client.oauth.info());
    env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 3, times: 1 });
    const { value } = await env.drive(
      client.oauth.info({ maxRateLimitWait: 1000 }).catch((error: unknown) => error),
    );
    expect(value).toMatchObject({ status: 429, waitedMs: 0 });
  });
});

describe('one budget per client', () => {
  it('is shared by the clients withOptions() derives', async () => {
    env = await limitedFake();
    const client = env.client();
    const patient = client.withOptions({ maxRetries: 0, maxRateLimitWait: 30_000 });
    const calls = [client, patient].flatMap((sdk) => Array.from({ length: 15 }, () => sdk.oauth.info()));
    const { value } = await env.drive(Promise.allSettled(calls));
    expect(value.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(env.statuses(/^\/v1\/oauth2\/info$/)).toEqual({ limited: 0, ok: 30 });
  });

  it('a caller’s signal ends its wait for a turn', async () => {
    env = await limitedFake({ rateLimit: '2/s' });
    const client = env.client();
    await env.drive(client.oauth.info());
    const controller = new AbortController();
    const others = Array.from({ length: 3 }, () => client.oauth.info());
    const waiting = client.oauth.info({ signal: controller.signal }).catch((error: unknown) => error);
    await env.settle();
    controller.abort();
    const { value } = await env.drive(Promise.all([waiting, ...others]));
    expect(value[0]).toBeInstanceOf(APIUserAbortError);
    expect(env.statuses(/^\/v1\/oauth2\/info$/)).toEqual({ limited: 0, ok: 4 });
  });
});
