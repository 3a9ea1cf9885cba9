import type { Clock } from '../core/clock.js';
import { APIConnectionError, APIError, AuthenticationError } from '../core/errors/errors.js';
import { backoffDelay, isRetryableStatus, type RetryConfig } from '../core/request/retry-policy.js';
import { type AssertionIdentity, createAssertion } from './assertion.js';
import type { ServerClock } from './server-clock.js';
import type { Signer } from './signer.js';
import type { SigningKey } from './signing-key.js';
import { parseHttpDate, type TokenEndpoint, type TokenExchangeResult } from './token-endpoint.js';
import { JWT_BEARER_GRANT } from './token-response.js';

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
}

/**
 * Exchanges a new assertion for a token pair. Every attempt signs a NEW assertion (new `jti`, fresh `iat`),
 * so a retry never replays one the server may already have seen. Retried: connection errors, timeouts, 408,
 * 429 and 5xx (up to `maxRetries`, full-jitter backoff, `Retry-After` honoured). A 401 whose `Date` header
 * shows the server's clock more than 2 s from ours is sent once more with the corrected clock (not counted as
 * a retry); the offset is kept for later exchanges. So is a 401 for an assertion built more than 2 s before
 * the answer came (it may have aged past the server's skew on its way). Anything else is thrown as is.
 */
export async function requestJwtGrant(
  context: JwtGrantContext,
): Promise<{ result: TokenExchangeResult; startedAt: number }> {
  let retries = 0;
  let correctedClock = false;
  for (;;) {
    const startedAt = context.clock.now();
    const assertion = await createAssertion(context.sign, context.identity, context.serverClock.now());
    try {
      const result = await context.endpoint({ grant_type: JWT_BEARER_GRANT, assertion });
      return { result, startedAt };
    } catch (error) {
      const drift = observeServerDate(error, context.serverClock);
      // Either the clocks differ, or the assertion aged on its way (a slow KMS signer, a paused process, a
      // slow network): the server tolerates only seconds, so one fresh assertion may pass where this failed.
      const skewed = drift !== undefined && Math.abs(drift) > SKEW_RETRY_THRESHOLD_MS;
      const aged = context.clock.now() - startedAt > SKEW_RETRY_THRESHOLD_MS;
      if (error instanceof AuthenticationError && !correctedClock && (skewed || aged)) {
        correctedClock = true;
        continue;
      }
      const wait = retryWait(error, retries, context.retry);
      if (wait === undefined || retries >= context.maxRetries) throw error;
      retries += 1;
      await context.clock.sleep(wait);
    }
  }
}

/** Learns from an error response's `Date` header; the drift it showed, if it had one. */
function observeServerDate(error: unknown, serverClock: ServerClock): number | undefined {
  if (!(error instanceof APIError)) return undefined;
  const serverDate = parseHttpDate(error.headers.get('date'));
  return serverDate === undefined ? undefined : serverClock.observe(serverDate);
}

/** Milliseconds to wait before retrying after `error`, or `undefined` when it must not be retried. */
function retryWait(error: unknown, retries: number, config: RetryConfig): number | undefined {
  if (error instanceof APIConnectionError) return backoffDelay(retries, config);
  if (!(error instanceof APIError) || !isRetryableStatus(error.status)) return undefined;
  if (error.retryAfterMs === undefined) return backoffDelay(retries, config);
  return error.retryAfterMs <= config.maxRetryAfterMs ? error.retryAfterMs : undefined;
}
