import { AbortError } from 'p-retry';
import { recordWait, type WaitReason } from '../../tracing/tracing.js';
import { RateLimitError } from '../errors/errors.js';
import { type ReadResponse, toAPIError } from '../request/read-response.js';
import type { RequesterConfig } from '../request/requester-config.js';
import type { CallState } from '../request/send-attempt.js';
import { RateLimitWaitExceeded } from './rate-limiter.js';

/** `maxRateLimitWait`'s default: a minute. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT = 60_000;

/**
 * Sends one attempt in its turn under the client's rate limiter (or at once without one). A 429 that says
 * when to come back is sent again then, without using a retry; once the call's waits would pass
 * `maxRateLimitWait` it ends with a {@link RateLimitError} that says how long it waited. Only bearer routes
 * are paced: the budget is the client's, and the service knows the client by its token.
 */
export function pacedSend(
  config: RequesterConfig,
  state: CallState,
  send: () => Promise<ReadResponse>,
): Promise<ReadResponse> {
  const bearer = (state.spec.auth ?? 'bearer') === 'bearer';
  return config.rateLimiter === undefined || !bearer ? send() : paced(config, state, send);
}

async function paced(config: RequesterConfig, state: CallState, send: () => Promise<ReadResponse>) {
  const limiter = config.rateLimiter!;
  const { clock } = config;
  const options = state.spec.options;
  const maxWait = options?.maxRateLimitWait ?? config.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT;
  let waited = 0;
  let reason: WaitReason = 'rate_limit';
  for (;;) {
    const started = clock.now();
    const turn = limiter.turn(maxWait - waited, options?.signal);
    if (turn !== undefined) {
      await turn.catch((error: unknown) => {
        if (!(error instanceof RateLimitWaitExceeded)) throw error;
        throw new AbortError(gaveUp(config, state, undefined, waited + error.waitedMs, undefined));
      });
      const ms = clock.now() - started;
      waited += ms;
      if (ms > 0) recordWait(reason, ms);
    }
    const read = await send().catch((error: unknown) => {
      limiter.observe(undefined);
      throw error;
    });
    const retryIn = limiter.observe(read);
    if (retryIn === undefined) return read;
    if (waited + retryIn > maxWait) throw new AbortError(gaveUp(config, state, read, waited, retryIn));
    config.logger.debug(
      `${state.spec.method} ${state.spec.path}: 429, sending again in its turn (${retryIn}ms)`,
    );
    reason = 'retry_after';
  }
}

function gaveUp(
  config: RequesterConfig,
  state: CallState,
  read: ReadResponse | undefined,
  waitedMs: number,
  retryAfterMs: number | undefined,
): RateLimitError {
  const { spec, idempotencyKey, attempts } = state;
  const context = { method: spec.method, path: spec.path, idempotencyKey, attempts };
  const answer =
    read === undefined
      ? undefined
      : toAPIError(
          { ...context, route: spec.route, secrets: config.secrets, now: config.clock.now() },
          read,
          config.secrets,
        );
  return new RateLimitError({
    ...context,
    status: 429,
    headers: answer?.headers ?? new Headers(),
    requestId: answer?.requestId,
    body: answer?.body,
    retryAfterMs: retryAfterMs ?? answer?.retryAfterMs,
    waitedMs,
    secrets: config.secrets,
  });
}
