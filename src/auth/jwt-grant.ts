import type { Clock } from '../core/clock.js';
import { APIError, AuthenticationError } from '../core/errors/errors.js';
import type { Logger } from '../core/logging/logger.js';
import { type RetryConfig, withRetries } from '../core/request/retry-policy.js';
import { type AssertionIdentity, createAssertion } from './assertion.js';
import type { ServerClock } from './server-clock.js';
import type { Signer } from './signer.js';
import type { SigningKey } from './signing-key.js';
import { parseHttpDate, type TokenEndpoint, type TokenExchangeResult } from './token-endpoint.js';
import { JWT_BEARER_GRANT, TOKEN_PATH } from './token-response.js';

/**
 * An assertion refused while the clocks differ by more than this, or built longer ago than this, is sent
 * again (once) with a fresh `iat` from the corrected clock.
 */
export const SKEW_RETRY_THRESHOLD_MS = 2000;

/** What {@link requestJwtGrant} needs. */
export interface JwtGrantContext {
  endpoint: TokenEndpoint;
  sign: SigningKey | Signer;
  identity: AssertionIdentity;
  clock: Clock;
  serverClock: ServerClock;
  maxRetries: number;
  retry: RetryConfig;
  logger?: Pick<Logger, 'debug'> | undefined;
}

/**
 * Exchanges a new assertion for a token pair. Every attempt signs a NEW assertion (new `jti`, fresh `iat`),
 * so a retry never replays one the server may already have seen. Retries follow the pipeline's own loop
 * (`withRetries`: connection errors, timeouts, 408, 429 and 5xx, up to `maxRetries`). A 401 whose `Date`
 * header shows the server's clock more than 2 s from ours is sent once more with the corrected clock (not
 * counted as a retry); the offset is kept for later exchanges. So is a 401 for an assertion built more than
 * 2 s before the answer came (it may have aged past the server's skew on its way).
 */
export async function requestJwtGrant(
  context: JwtGrantContext,
): Promise<{ result: TokenExchangeResult; startedAt: number }> {
  const { clock, serverClock } = context;
  let correctedClock = false;
  // Requests sent for this exchange, so each one's `attempts` (and debug line) counts them all.
  let sent = 0;
  const exchange = async () => {
    const startedAt = clock.now();
    const assertion = await createAssertion(context.sign, context.identity, serverClock.now());
    const form = { grant_type: JWT_BEARER_GRANT, assertion };
    sent += 1;
    return { result: await context.endpoint(form, undefined, sent - 1), startedAt };
  };
  const attempt = async () => {
    const startedAt = clock.now();
    try {
      return await exchange();
    } catch (error) {
      const drift = observeServerDate(error, serverClock);
      const skewed = drift !== undefined && Math.abs(drift) > SKEW_RETRY_THRESHOLD_MS;
      const aged = clock.now() - startedAt > SKEW_RETRY_THRESHOLD_MS;
      if (!(error instanceof AuthenticationError) || correctedClock || !(skewed || aged)) throw error;
      correctedClock = true;
      return exchange();
    }
  };
  return withRetries(attempt, {
    retries: context.maxRetries,
    retry: context.retry,
    clock,
    logger: context.logger,
    call: { method: 'POST', path: TOKEN_PATH },
  });
}

/** Learns from an error response's `Date` header; the drift it showed, if it had one. */
function observeServerDate(error: unknown, serverClock: ServerClock): number | undefined {
  if (!(error instanceof APIError)) return undefined;
  const serverDate = parseHttpDate(error.headers.get('date'));
  return serverDate === undefined ? undefined : serverClock.observe(serverDate);
}
