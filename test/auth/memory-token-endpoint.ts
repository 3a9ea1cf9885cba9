// In-memory token endpoint and TokenManager for the edge tests (issue 27, test strength): the property
// test's seam, so that "no exchange happened" can be asserted exactly. Every step up to the endpoint is in
// memory, so one macrotask turn ({@link flush}) lets any exchange that was started reach it.
import { jwsSigningInput, type Signer } from '../../src/auth/signer.js';
import type { TokenEndpoint } from '../../src/auth/token-endpoint.js';
import { TokenManager } from '../../src/auth/token-manager.js';
import type { TokenStore } from '../../src/auth/token-store.js';
import { APIError } from '../../src/core/errors/errors.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { recordingLogger } from './harness.js';
import { ManualClock } from './manual-clock.js';

export const HOUR = 3600_000;
export const flush = () => new Promise((resolve) => setImmediate(resolve));
/** A signer with no crypto (the exchange stays in memory); the endpoint below never checks signatures. */
export const signer: Signer = async (claims, header) => `${jwsSigningInput(header, claims)}.c2lnbmF0dXJl`;

export interface Answer {
  /** Answers carry a `Date` this far ahead of the local clock (none when absent). */
  serverAheadMs?: number;
  /** Each answer waits for this promise first (a slow server). */
  hold?: Promise<void> | undefined;
  refreshToken?: string | null;
  expiresIn?: number;
  refreshExpiresIn?: number;
}

/** A token endpoint in memory: records each grant, fails with the queued statuses, else issues a pair. */
export function memoryEndpoint(clock: ManualClock, answer: Answer = {}) {
  const calls: { grant: 'jwt' | 'refresh'; refreshToken: string | undefined; at: number }[] = [];
  const failures: (number | { status: number; retryAfterMs: number } | Error | string)[] = [];
  let issued = 0;
  const endpoint: TokenEndpoint = async (form) => {
    const grant = form['grant_type'] === 'refresh_token' ? 'refresh' : 'jwt';
    calls.push({ grant, refreshToken: form['refresh_token'], at: clock.now() });
    await answer.hold;
    const failure = failures.shift();
    if (typeof failure === 'number' || (typeof failure === 'object' && 'status' in failure))
      throw APIError.from({
        status: typeof failure === 'number' ? failure : failure.status,
        method: 'POST',
        path: '/v1/oauth2/tokens',
        headers: new Headers(),
        requestId: undefined,
        idempotencyKey: undefined,
        attempts: 1,
        body: { code: 'scripted', detail: 'scripted failure' },
        retryAfterMs: typeof failure === 'number' ? undefined : failure.retryAfterMs,
      });
    if (failure !== undefined) throw failure;
    issued += 1;
    const refreshToken =
      answer.refreshToken === undefined ? `rt${issued}` : (answer.refreshToken ?? undefined);
    return {
      token: {
        accessToken: `at${issued}`,
        refreshToken,
        tokenType: 'Bearer',
        expiresIn: answer.expiresIn ?? 3600,
        refreshExpiresIn: answer.refreshExpiresIn ?? 2_592_000,
      },
      serverDate: answer.serverAheadMs === undefined ? undefined : clock.now() + answer.serverAheadMs,
    };
  };
  return { endpoint, calls, failures };
}

export function manager(answer: Answer = {}, random = () => 0.5, store?: TokenStore) {
  const clock = new ManualClock();
  const api = memoryEndpoint(clock, answer);
  const logger = recordingLogger();
  const tokens = new TokenManager({
    ...(store === undefined ? {} : { store }),
    identity: { issuer: 'https://i.example', clientId: 'c', audience: 'https://api.example' },
    sign: signer,
    endpoint: api.endpoint,
    clock,
    random,
    retry: { ...DEFAULT_RETRY, random: () => 0.5 },
    logger,
  });
  return { clock, tokens, logger, ...api };
}
