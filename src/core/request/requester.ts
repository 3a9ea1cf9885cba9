import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  InputValidationError,
} from '../errors/errors.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import {
  assertOneBody,
  buildUrl,
  contentTypeOf,
  extendHeaders,
  mergeHeaders,
  userAgent,
} from './build-request.js';
import { checkRequestOptions } from './check-request-options.js';
import { parseSuccess, type ReadResponse, type ResponseContext, toAPIError } from './read-response.js';
import type { RequestOptions } from './request-options.js';
import type { RequestSpec } from './request-spec.js';
import type { RequesterConfig } from './requester-config.js';
import { backoffDelay, isRetryableStatus } from './retry-policy.js';
import { routeAuth } from './routes.js';
import { type CallState, sendAttempt } from './send-attempt.js';

export type { RequesterConfig };

/**
 * The request pipeline every endpoint rides on: URL and headers, bearer token for routes that need one,
 * per-attempt timeout, retries with jittered backoff (p-retry, waits on the injected clock), error mapping
 * and response parsing.
 */
export class Requester {
  // Private, so `util.inspect` of a client or resource does not walk into the transport and authenticator.
  readonly #config: Readonly<RequesterConfig>;
  // `accept`, `user-agent` and the client's default headers, merged once: every call starts from a copy.
  readonly #baseHeaders: Readonly<Record<string, string>>;

  constructor(config: RequesterConfig) {
    this.#config = Object.freeze({ ...config });
    this.#baseHeaders = Object.freeze(
      mergeHeaders({ accept: 'application/json', 'user-agent': userAgent() }, config.defaultHeaders),
    );
  }

  /** The settings this requester runs with (read-only). */
  get config(): Readonly<RequesterConfig> {
    return this.#config;
  }

  /** A requester with some settings replaced; it shares the transport unless that is replaced too. */
  with(overrides: Partial<RequesterConfig>): Requester {
    return new Requester({ ...this.config, ...overrides });
  }

  /**
   * Sends one logical call (with its retries) and parses the result.
   *
   * @example
   * ```ts
   * const page = await requester.request({ method: 'GET', path: '/v1/spv-requests', query: { page: 2 }, response: PageSchema });
   * ```
   */
  request<Body, T = Body>(spec: RequestSpec<T, Body>): APIPromise<T> {
    let result: Promise<WithResponse<T>>;
    try {
      result = this.#run(spec);
    } catch (error) {
      result = Promise.reject(error);
    }
    return new APIPromise(result);
  }

  // Not async: a call that succeeds at once resolves through the first attempt's own promise (checks that
  // fail before anything is sent throw here, and `request` turns them into a rejection).
  #run<T, Body>(spec: RequestSpec<T, Body>): Promise<WithResponse<T>> {
    const { config } = this;
    const options = spec.options ?? NO_OPTIONS;
    checkRequestOptions(spec);
    assertOneBody(spec);
    const signal = options.signal;
    if (signal?.aborted) throw new APIUserAbortError(spec, { cause: signal.reason });

    const headers = extendHeaders(
      this.#baseHeaders,
      contentTypeOf(spec),
      spec.idempotencyKey === undefined ? undefined : { 'idempotency-key': spec.idempotencyKey },
      options.headers,
    );
    if (spec.multipart !== undefined) delete headers['content-type'];
    const auth = routeAuth(spec.method, spec.path);
    if (auth === 'bearer' && config.authenticator === undefined && headers['authorization'] === undefined) {
      throw new InputValidationError('client options', [
        {
          path: 'clientId',
          message: `${spec.method} ${spec.path} needs credentials (clientId, issuer, privateKey)`,
        },
      ]);
    }

    const idempotencyKey = headers['idempotency-key'];
    const startedAt = config.clock.now();
    const state: CallState = {
      spec,
      url: buildUrl(config.baseUrl, spec.path, spec.query),
      headers,
      idempotencyKey,
      attempts: 0,
      startedAt,
      deadlineAt: config.deadline === undefined ? undefined : startedAt + config.deadline,
      timeout: options.timeout ?? config.timeout,
    };
    const retryable = spec.method !== 'POST' || idempotencyKey !== undefined || spec.retryPost === true;
    const authenticator = auth === 'none' ? undefined : config.authenticator;
    const mode = spec.validation ?? config.validation.mode;
    const validation = mode === config.validation.mode ? config.validation : { ...config.validation, mode };
    const select = spec.select?.bind(spec);

    const attempt = async (): Promise<WithResponse<T>> => {
      try {
        // The cached token is taken synchronously when the authenticator offers it (nearly every call).
        const token =
          authenticator === undefined
            ? undefined
            : (authenticator.currentToken?.() ??
              (await fromAuthenticator(() => authenticator.getToken(signal))));
        let read = await sendAttempt(config, state, token);
        if (read.status === 401 && token !== undefined)
          read = await this.#afterUnauthorized(state, token, read);
        const context: ResponseContext = {
          method: spec.method,
          path: spec.path,
          route: spec.route,
          attempts: state.attempts,
          idempotencyKey,
          secrets: config.secrets,
          now: config.clock.now(),
        };
        if (read.status < 200 || read.status >= 300) throw toAPIError(context, read, config.secrets);
        const parsed = parseSuccess(context, read, spec.response, validation, select);
        return parsed instanceof Promise ? await parsed : parsed;
      } catch (error) {
        if (signal?.aborted && !(error instanceof APIUserAbortError)) {
          throw new FinalFailure(new APIUserAbortError(spec, { cause: signal.reason }));
        }
        // Errors that retrying cannot fix end the call at once, unwrapped.
        throw retryable && isRetryable(error) ? error : new FinalFailure(asError(error));
      }
    };

    // The first attempt runs outside p-retry: most calls succeed at once and skip its machinery (and never
    // load it). A retryable failure, when retries are left, enters p-retry as its own first attempt
    // (re-thrown there), so retries behave exactly as before.
    return attempt().catch((error: unknown) => {
      if (error instanceof FinalFailure) throw error.error;
      const retries = options.maxRetries ?? config.maxRetries;
      if (retries <= 0) throw error;
      return withRetryLoop(({ default: pRetry, AbortError }) => {
        let firstFailure: { error: unknown } | undefined = { error };
        const replayFirst = async (): Promise<WithResponse<T>> => {
          if (firstFailure === undefined) {
            try {
              return await attempt();
            } catch (failure) {
              throw failure instanceof FinalFailure ? new AbortError(failure.error) : failure;
            }
          }
          const failed = firstFailure.error;
          firstFailure = undefined;
          throw failed;
        };
        return pRetry(replayFirst, {
          retries,
          // p-retry's own timers stay at 0: the wait happens in onFailedAttempt on the injected clock.
          minTimeout: 0,
          onFailedAttempt: async ({ error, retriesLeft, retriesConsumed }) => {
            if (retriesLeft <= 0) return;
            await this.#wait(state, error, retriesConsumed, signal);
          },
        });
      });
    });
  }

  // The single re-send after a 401, when the authenticator produced a fresh token.
  async #afterUnauthorized(state: CallState, token: string, first: ReadResponse): Promise<ReadResponse> {
    const { config } = this;
    const authenticator = config.authenticator;
    if (authenticator === undefined || state.refreshedAfter401 === true) return first;
    const signal = state.spec.options?.signal;
    state.refreshedAfter401 = true;
    const renewed = await fromAuthenticator(() => authenticator.onUnauthorized(token, signal));
    if (!renewed) return first;
    config.logger.debug(`${state.spec.method} ${state.spec.path}: 401, retrying once with a renewed token`);
    const fresh = await fromAuthenticator(() => authenticator.getToken(signal));
    return sendAttempt(config, state, fresh);
  }

  // The wait before the next attempt: the server's Retry-After (up to the cap), else full-jitter backoff.
  async #wait(
    state: CallState,
    error: Error,
    retryIndex: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const { clock, logger, retry } = this.config;
    const retryAfter = error instanceof APIError ? error.retryAfterMs : undefined;
    if (retryAfter !== undefined && retryAfter > retry.maxRetryAfterMs) {
      logger.debug(
        `${state.spec.method} ${state.spec.path}: Retry-After ${retryAfter}ms is over the cap; not retrying`,
      );
      throw error;
    }
    const delay = retryAfter ?? backoffDelay(retryIndex, retry);
    if (state.deadlineAt !== undefined && clock.now() + delay >= state.deadlineAt) {
      logger.debug(`${state.spec.method} ${state.spec.path}: the next attempt would pass the deadline`);
      throw error;
    }
    logger.debug(`${state.spec.method} ${state.spec.path}: retrying in ${delay}ms`, {
      attempt: state.attempts,
      reason: error.message,
    });
    try {
      await clock.sleep(delay, signal);
    } catch (reason) {
      throw new APIUserAbortError(state.spec, { cause: reason });
    }
  }
}

// Read-only stand-in for absent per-call options: no object per call.
const NO_OPTIONS: Readonly<RequestOptions> = Object.freeze({});

// Failures of the token hook are final here: the token exchange ran its own retries already.
const fromAuthenticatorErrors = new WeakSet<object>();

async function fromAuthenticator<R>(call: () => Promise<R>): Promise<R> {
  try {
    return await call();
  } catch (error) {
    if (typeof error === 'object' && error !== null) fromAuthenticatorErrors.add(error);
    throw error;
  }
}

function isRetryable(error: unknown): boolean {
  if (typeof error === 'object' && error !== null && fromAuthenticatorErrors.has(error)) return false;
  if (error instanceof APIError) return isRetryableStatus(error.status);
  if (error instanceof APITimeoutError) return error.scope === 'attempt';
  return error instanceof APIConnectionError;
}

/** A failure retrying cannot fix: it ends the call as is (inside p-retry, as its `AbortError`). */
class FinalFailure {
  constructor(readonly error: Error) {}
}

type RetryModule = typeof import('p-retry');
let retryModule: RetryModule | undefined;

/**
 * Runs `use` with p-retry, imported on the first call that needs a retry: a process whose calls succeed
 * never loads it, and it is not part of the SDK's import (issue 17's cold start). Loaded, it is used at once.
 */
function withRetryLoop<R>(use: (module: RetryModule) => Promise<R>): Promise<R> {
  if (retryModule !== undefined) return use(retryModule);
  return import('p-retry').then((module) => {
    retryModule = module;
    return use(module);
  });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
