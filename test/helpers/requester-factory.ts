import { z } from 'zod';
import type { Authenticator } from '../../src/core/request/authenticator.js';
import { Requester, type RequesterConfig } from '../../src/core/request/requester.js';
import { responseValidation } from '../../src/core/request/response-validation.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { defaultTransport } from '../../src/core/transport/default-transport.js';
import { drivingClock } from './driving-clock.js';
import { memoryLogger } from './memory-logger.js';

/**
 * A {@link Requester} for pipeline tests: the default transport (as a client builds it), a driving clock (backoff waits complete at
 * once and are recorded), a memory logger, 2 retries, 5 s per attempt.
 */
export function testRequester(baseUrl: string, overrides: Partial<RequesterConfig> = {}): Requester {
  return new Requester({
    baseUrl: new URL(baseUrl),
    transport: defaultTransport(),
    clock: drivingClock(),
    logger: memoryLogger(),
    validation: responseValidation('strict', memoryLogger()),
    logLevel: 'debug',
    maxRetries: 2,
    timeout: 5_000,
    retry: DEFAULT_RETRY,
    defaultHeaders: {},
    ...overrides,
  });
}

/** An {@link Authenticator} that hands out `tokens` in order and records what it was asked. */
export function scriptedAuthenticator(tokens: string[], options: { renew?: boolean } = {}) {
  let index = 0;
  const calls = { getToken: 0, onUnauthorized: [] as string[] };
  const authenticator: Authenticator = {
    getToken: async () => {
      calls.getToken += 1;
      return tokens[Math.min(index, tokens.length - 1)] ?? 'no-token';
    },
    onUnauthorized: async (failedToken) => {
      calls.onUnauthorized.push(failedToken);
      if (options.renew === false) return false;
      index += 1;
      return true;
    },
  };
  return { authenticator, calls };
}

/** A {@link testRequester} whose bearer routes get a fixed token: for tests about retries and timeouts. */
export const bearerRequester: typeof testRequester = (url, overrides = {}) =>
  testRequester(url, { authenticator: scriptedAuthenticator(['at_test']).authenticator, ...overrides });

/** The `{ ok: true }` response schema, its 200 reply, and a 503 reply with the spec's error envelope. */
export const Ok = z.looseObject({ ok: z.literal(true) });
export const ok = { status: 200, body: { ok: true } } as const;
export const unavailable = {
  status: 503,
  body: { code: 'unavailable', detail: 'try later', errorId: 'e1' },
} as const;
