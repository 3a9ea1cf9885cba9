import { afterEach, expect, it } from 'vitest';
import { RateLimitError } from '../../src/index.js';
import { type LimitedFake, limitedFake } from './rate-limit-harness.js';

let env: LimitedFake;
afterEach(() => env.close());

it('a call queued behind another caller’s long wait gives up at its own bound, not when that wait ends', async () => {
  env = await limitedFake({});
  const client = env.client();
  await env.drive(client.oauth.info());
  env.fake.faults.inject({ match: { path: '/v1/oauth2/info' }, status: 429, retryAfter: 5, times: 1 });
  const patient = client.oauth.info(); // waits the 5 s the 429 asked for, then goes again
  await env.settle();
  const started = env.fake.clock.now();
  const gaveUp = (call: Promise<unknown>) =>
    call.then(
      () => ({ error: undefined, afterMs: env.fake.clock.now() - started }),
      (error: unknown) => ({ error, afterMs: env.fake.clock.now() - started }),
    );
  const derived = gaveUp(client.withOptions({ maxRateLimitWait: 100 }).oauth.info());
  const perCall = gaveUp(client.oauth.info({ maxRateLimitWait: 10 }));
  const { value } = await env.drive(Promise.all([derived, perCall, patient]));
  expect(value[0].error).toBeInstanceOf(RateLimitError);
  expect(value[0].afterMs).toBeLessThanOrEqual(100);
  expect((value[0].error as RateLimitError).waitedMs).toBeLessThanOrEqual(100);
  expect(value[1].error).toBeInstanceOf(RateLimitError);
  expect(value[1].afterMs).toBeLessThanOrEqual(10);
  expect(env.statuses(/^\/v1\/oauth2\/info$/)).toEqual({ limited: 1, ok: 2 });
});
