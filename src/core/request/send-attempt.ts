import { AbortError } from 'p-retry';
import { recordWait } from '../../tracing/tracing.js';
import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  PartnerEquityError,
  RateLimitError,
  userAbortError,
} from '../errors/errors.js';
import { logBody } from '../logging/log-body.js';
import { type RedactOptions, redact, redactHeaders } from '../logging/redact.js';
import { WaitExceeded } from '../rate-limit/rate-limiter.js';
import { readText, type TransportRequest } from '../transport/transport.js';
import type { MultipartBody } from '../uploads/multipart-body.js';
import { type ReadResponse, type ResponseContext, requestIdOf, toHeaders } from './read-response.js';
import { JsonText, type RequestSpec } from './request-spec.js';
import type { RequesterConfig } from './requester-config.js';
import { connectionMessage, deadlineError, rateLimitGaveUp } from './response-error.js';

/** The state of one logical call across its attempts. */
export interface CallState {
  spec: RequestSpec<unknown>;
  url: URL;
  /** Everything but `authorization`, which is added per attempt. */
  headers: Record<string, string>;
  idempotencyKey: string | undefined;
  /** HTTP requests sent so far. */
  attempts: number;
  startedAt: number;
  deadlineAt: number | undefined;
  timeout: number;
  /** A POST is sent again (retried, or re-sent after a 429) only with an idempotency key. */
  repeatable: boolean;
  refreshedAfter401?: boolean;
  /** Ms waited for the rate limit so far, summed across attempts: bounded by `maxRateLimitWait`. */
  rateLimitWaited: number;
  /** Set by an attempt answered 429 whose wait the limiter now holds: the retry loop sends it again. */
  paced?: boolean;
  /** The last 429 the call received, for the error when a later turn is refused before sending. */
  limited?: ReadResponse | undefined;
}

/**
 * Sends one bearer attempt in its turn (at once without a limiter): the limiter is only a gate. A 429 that
 * says when to come back marks the call `paced` (the retry loop sends it again, and the limiter holds the
 * next turn); once the waits would pass `maxRateLimitWait`, `RateLimitError`.
 */
export async function gatedSend(
  config: RequesterConfig,
  state: CallState,
  token: string | undefined,
): Promise<ReadResponse> {
  const limiter = config.rateLimiter;
  state.paced = false;
  if (limiter === undefined || (state.spec.auth ?? 'bearer') !== 'bearer')
    return sendAttempt(config, state, token);
  const { clock } = config;
  const options = state.spec.options;
  const maxWait = options?.maxRateLimitWait ?? config.maxRateLimitWait ?? 60_000;
  const turn = limiter.turn(maxWait - state.rateLimitWaited, options?.signal);
  if (turn !== undefined) {
    const started = clock.now();
    await turn.catch((error: unknown) => {
      throw error instanceof WaitExceeded
        ? new AbortError(
            rateLimitGaveUp(
              responseContext(config, state),
              state.limited,
              state.rateLimitWaited + error.waitedMs,
            ),
          )
        : error;
    });
    const ms = clock.now() - started;
    state.rateLimitWaited += ms;
    if (ms > 0) recordWait(state.limited === undefined ? 'rate_limit' : 'retry_after', ms);
  }
  let read: ReadResponse;
  try {
    read = await sendAttempt(config, state, token);
  } catch (error) {
    limiter.observe(undefined);
    throw error;
  }
  const retryIn = limiter.observe(read, maxWait - state.rateLimitWaited);
  // A POST without an idempotency key is never sent twice, 429 or not.
  if (retryIn === undefined || !state.repeatable) return read;
  state.limited = read;
  if (state.rateLimitWaited + retryIn > maxWait)
    throw new AbortError(
      rateLimitGaveUp(responseContext(config, state), read, state.rateLimitWaited, retryIn),
    );
  state.paced = true;
  config.logger.debug(`${state.spec.method} ${state.spec.path}: 429, sent again in turn (${retryIn}ms)`);
  return read;
}

/**
 * Whether the retry loop sends a failed attempt again without using a retry: a 429 whose wait the limiter
 * holds, or (once a call) a 401 after the authenticator renewed the token it carried.
 */
export async function mayResend(
  config: RequesterConfig,
  state: CallState,
  token: string | undefined,
  error: Error,
): Promise<boolean> {
  if (error instanceof RateLimitError) return state.paced === true;
  const { authenticator, clock, logger } = config;
  if (!(error instanceof AuthenticationError) || authenticator === undefined || token === undefined)
    return false;
  if (state.refreshedAfter401 === true) return false;
  state.refreshedAfter401 = true;
  const waitStarted = clock.now();
  if (!(await authenticator.onUnauthorized(token, state.spec.options?.signal))) return false;
  recordWait('unauthorized', clock.now() - waitStarted);
  logger.debug(`${state.spec.method} ${state.spec.path}: 401, retrying once with a renewed token`);
  return true;
}

/**
 * Sends one request and reads the whole answer within the attempt's `timeout` (cut to what is left of the
 * `deadline`). The timer runs in real time even under a manual clock: network I/O does.
 */
export async function sendAttempt(
  config: RequesterConfig,
  state: CallState,
  token: string | undefined,
): Promise<ReadResponse> {
  const { clock, logger, transport } = config;
  const { spec } = state;

  const remaining =
    state.deadlineAt === undefined ? Number.POSITIVE_INFINITY : state.deadlineAt - clock.now();
  if (remaining <= 0) throw deadlineError(responseContext(config, state), config.deadline);
  const scope = remaining < state.timeout ? 'deadline' : 'attempt';
  const limit = Math.min(remaining, state.timeout);

  const headers =
    token === undefined ? state.headers : { ...state.headers, authorization: `Bearer ${token}` };
  const body = encodeBody(spec);
  state.attempts += 1;
  const callerSignal = spec.options?.signal;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), limit);
  const signal =
    callerSignal === undefined ? timeout.signal : AbortSignal.any([callerSignal, timeout.signal]);
  const started = clock.now();
  let read: ReadResponse | undefined;
  let failure: Error | undefined;
  try {
    const response = await transport({ method: spec.method, url: state.url, headers, body, signal });
    read = { status: response.status, headers: response.headers, text: await readText(response.body) };
    return read;
  } catch (error) {
    failure = userAbortError(spec, callerSignal);
    if (failure !== undefined) throw failure;
    if (timeout.signal.aborted) {
      failure =
        scope === 'deadline'
          ? deadlineError(responseContext(config, state), config.deadline, error)
          : new APITimeoutError(responseContext(config, state), {
              cause: error,
              message: `timed out after ${limit}ms`,
            });
    } else if (error instanceof PartnerEquityError) failure = error;
    else
      failure = new APIConnectionError(responseContext(config, state), {
        cause: error,
        message: connectionMessage(error),
      });
    throw failure;
  } finally {
    clearTimeout(timer);
    // Redaction runs only when debug lines are on: a client that does not log pays nothing for it.
    if (config.logLevel === undefined || config.logLevel === 'debug') {
      const durationMs = clock.now() - started;
      const outcome =
        read === undefined ? `failed: ${failure?.message ?? 'unknown error'}` : String(read.status);
      const redaction = { secrets: config.secrets, maskPersonalData: config.logPersonalData !== true };
      logger.debug(`${spec.method} ${spec.path} → ${outcome} (attempt ${state.attempts}, ${durationMs}ms)`, {
        method: spec.method,
        path: spec.path,
        query: spec.query === undefined ? undefined : redact(spec.query, redaction),
        status: read?.status,
        attempt: state.attempts,
        durationMs,
        requestId: read === undefined ? undefined : requestIdOf(read.headers, config),
        idempotencyKey: state.idempotencyKey,
        requestHeaders: redactHeaders(headers, config.secrets),
        requestBody: describeBody(spec, body, redaction),
        responseHeaders:
          read === undefined ? undefined : redactHeaders(toHeaders(read.headers), config.secrets),
        responseBody: read === undefined ? undefined : logBody(read.text, redaction),
      });
    }
  }
}

// The body of one attempt: multipart bodies are rebuilt every time (a stream cannot be sent twice).
function encodeBody(spec: RequestSpec<unknown>): string | MultipartBody | undefined {
  if (spec.json !== undefined)
    return spec.json instanceof JsonText ? spec.json.text : JSON.stringify(spec.json);
  if (spec.form !== undefined) return new URLSearchParams(spec.form).toString();
  return spec.multipart?.();
}

/** Where an attempt's answer came from: for its error, its parsed value and the raw response. */
export function responseContext(config: RequesterConfig, state: CallState): ResponseContext {
  const { spec, attempts, idempotencyKey } = state;
  return {
    method: spec.method,
    path: spec.path,
    route: spec.route,
    attempts,
    idempotencyKey,
    secrets: config.secrets,
    now: config.clock.now(),
  };
}

function describeBody(
  spec: RequestSpec<unknown>,
  body: TransportRequest['body'],
  redaction: RedactOptions,
): unknown {
  if (body === undefined) return undefined;
  if (spec.json !== undefined)
    return logBody(spec.json instanceof JsonText ? spec.json.value : spec.json, redaction);
  if (spec.form !== undefined) return logBody(spec.form, redaction);
  if (typeof body === 'string') return logBody(body, redaction);
  return `[${body.contentType.split(';')[0]}: ${body.length} bytes]`;
}
