import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { APITimeoutError, APIUserAbortError, InternalServerError } from '../../src/core/errors/errors.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { Ok, ok, bearerRequester as testRequester, unavailable } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

describe('deadline, timeout and abort', () => {
  it('stops retrying when the next wait would pass the total deadline', async () => {
    const clock = drivingClock();
    server().reply(unavailable, unavailable);
    const retry = { ...DEFAULT_RETRY, random: () => 0.9999999 };
    const error = await testRequester(server().url, { clock, retry, deadline: 1_200, maxRetries: 5 })
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok })
      .catch((e: unknown) => e);
    // First wait 499 ms fits (t=499); the second (999 ms) would end at 1498 > 1200.
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ attempts: 2 });
    expect(clock.waits).toEqual([499]);
  });

  it('does not start an attempt once the deadline has passed, and cuts an attempt short at the deadline', async () => {
    const clock = drivingClock();
    server().reply('hang');
    // The deadline runs in real time (network I/O is never on the fake clock). On a busy machine it may
    // pass before the request reaches the server, so the count is at most one, never a retry.
    const error = await testRequester(server().url, { clock, deadline: 300, timeout: 5_000 })
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toMatchObject({ scope: 'deadline', attempts: 1, code: 'timeout' });
    expect((error as Error).message).toContain('GET /v1/contracts');
    expect(server().requests.length).toBeLessThanOrEqual(1);
  });

  it('times an attempt out and retries it', async () => {
    server().reply('hang', ok);
    // Attempt timers run in real time (network I/O is never on the fake clock); 1 s leaves the answering
    // second attempt room on a busy machine (a loopback answer takes milliseconds idle) while the first
    // still times out within the test's time.
    const { response } = await testRequester(server().url, { timeout: 1_000 })
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok })
      .withResponse();
    expect(response.attempts).toBe(2);
  });

  it('surfaces APITimeoutError once every attempt timed out', async () => {
    server().reply('hang', 'hang');
    const error = await testRequester(server().url, { timeout: 50, maxRetries: 1 })
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', attempts: 2 });
  });

  it('aborts during a backoff wait without another request', async () => {
    const clock = drivingClock(undefined, { hold: true });
    server().reply(unavailable);
    const controller = new AbortController();
    const call = testRequester(server().url, { clock }).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
      options: { signal: controller.signal },
    });
    const sleep = await clock.nextSleep();
    expect(sleep).toBeLessThanOrEqual(500);
    controller.abort(new Error('user gave up'));
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toBe('GET /v1/contracts: request aborted by the caller');
    expect(server().requests).toHaveLength(1);
  });

  it('aborts a request in flight', async () => {
    server().reply('hang');
    const controller = new AbortController();
    const call = testRequester(server().url).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
      options: { signal: controller.signal },
    });
    while (server().requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server().requests).toHaveLength(1);
  });

  it('refuses to start with an already aborted signal', async () => {
    await expect(
      testRequester(server().url).request({
        method: 'GET',
        path: '/v1/contracts',
        auth: 'optional',
        response: Ok,
        options: { signal: AbortSignal.abort() },
      }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server().requests).toHaveLength(0);
  });

  it('leaves no listener on a signal shared by many calls', async () => {
    // One long-lived signal for a whole job (a shutdown signal, say): each attempt listens while in flight
    // and lets go after, so the signal never collects listeners (no MaxListenersExceededWarning).
    const controller = new AbortController();
    server().reply(...Array.from({ length: 20 }, () => ok));
    const requester = testRequester(server().url);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        requester.request({
          method: 'GET',
          path: '/v1/contracts',
          auth: 'optional',
          response: Ok,
          options: { signal: controller.signal },
        }),
      ),
    );
    expect(server().requests).toHaveLength(20);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
