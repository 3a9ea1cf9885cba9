import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/index.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { scriptedAuthenticator } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
/** The documented bound: a blocked budget lets one request through a minute after the last. */
const BLOCKED_PROBE_MS = 60_000;
const info = { status: 200, body: { clientId: 'client_1' } } as const;

/** A client on a driving clock (waits complete at once, recorded), and one derived from it. */
function clients() {
  const clock = drivingClock();
  const client = new PartnerEquity({
    baseUrl: server().url,
    authenticator: scriptedAuthenticator(['at_test']).authenticator,
    clock,
    logger: memoryLogger(),
  });
  return { clock, client, derived: client.withOptions({ maxRetries: 0 }) };
}

const ABSURD: [string, (now: number) => Record<string, string>][] = [
  [
    'a window of 3,170 years',
    () => ({ 'ratelimit-policy': '"p";q=10;w=99999999999', ratelimit: '"p";r=0;t=99999999999' }),
  ],
  [
    'X-RateLimit-Reset in epoch milliseconds, far ahead',
    (now) => ({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(now + 10 * 365 * 86_400_000),
    }),
  ],
];

describe('one absurd answer does not lock the client out', () => {
  it.each(ABSURD)(
    '%s: later calls succeed, the longest wait within the probe bound',
    async (_what, absurd) => {
      const { clock, client, derived } = clients();
      server().reply({ ...info, headers: absurd(clock.now()) });
      // The service is sane again: plain answers from now on.
      for (let index = 0; index < 20; index++) server().reply(info);
      await client.oauth.info();
      for (let index = 0; index < 20; index++) {
        await expect((index % 2 === 0 ? client : derived).oauth.info()).resolves.toEqual({
          clientId: 'client_1',
        });
      }
      expect(server().requests).toHaveLength(21);
      expect(Math.max(0, ...clock.waits)).toBeLessThanOrEqual(BLOCKED_PROBE_MS);
      expect(clock.waits.reduce((sum, wait) => sum + wait, 0)).toBeLessThanOrEqual(BLOCKED_PROBE_MS);
    },
  );

  it('the answer to the probe rules: a sane policy replaces the absurd one', async () => {
    const { clock, client } = clients();
    server().reply({ ...info, headers: { 'ratelimit-policy': '"p";q=2;w=99999999999' } });
    for (let index = 0; index < 2; index++) server().reply(info);
    server().reply({ ...info, headers: { 'ratelimit-policy': '"p";q=100;w=1', ratelimit: '"p";r=99;t=1' } });
    for (let index = 0; index < 10; index++) server().reply(info);
    for (let index = 0; index < 14; index++) await client.oauth.info();
    // Two slots of the absurd window went, then one probe after BLOCKED_PROBE_MS; then 100/s, no wait.
    expect(clock.waits).toEqual([BLOCKED_PROBE_MS]);
  });

  it('X-RateLimit-Reset in epoch milliseconds a few seconds ahead is waited for, as such', async () => {
    const { clock, client } = clients();
    const reset = String(clock.now() + 3000);
    server().reply(
      {
        ...info,
        headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      },
      info,
    );
    await client.oauth.info();
    await client.oauth.info();
    expect(clock.waits).toEqual([3000]);
  });

  it('a 429 with a 400-digit Retry-After fails that call with an hour, not Infinity', async () => {
    const { client } = clients();
    server().reply(info, {
      status: 429,
      headers: { 'retry-after': '9'.repeat(400) },
      body: { code: 'rate_limited' },
    });
    await client.oauth.info();
    const error = await client.oauth.info().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
  });
});
