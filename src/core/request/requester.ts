import { AbortError } from 'p-retry';
import { recordWait } from '../../tracing/tracing.js';
import { APIUserAbortError, InputValidationError } from '../errors/errors.js';
import { pacedSend } from '../rate-limit/rate-limiter.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import {
  assertOneBody,
  buildUrl,
  checkRequestOptions,
  contentTypeOf,
  mergeHeaders,
  userAgent,
} from './build-request.js';
import { recordRetry, startOperationSpan, traceOperation } from './operation-span.js';
import { parseSuccess, type ReadResponse, type ResponseContext, toAPIError } from './read-response.js';
import type { RequestSpec } from './request-spec.js';
import type { RequesterConfig } from './requester-config.js';
import { type RetryLoop, withRetries } from './retry-policy.js';
import { type CallState, sendAttempt } from './send-attempt.js';

export type { RequesterConfig };

/**
 * The request pipeline every endpoint rides on: URL and headers, bearer token for routes that need one,
 * per-attempt timeout, retries (`withRetries`), error mapping and response parsing.
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
    return new APIPromise(this.#run(spec));
  }

  async #run<T, Body>(spec: RequestSpec<T, Body>): Promise<WithResponse<T>> {
    const { config } = this;
    const options = spec.options ?? {};
    checkRequestOptions(spec);
    assertOneBody(spec);
    const signal = options.signal;
    if (signal?.aborted) throw new APIUserAbortError(spec, { cause: signal.reason });

    const headers = mergeHeaders(
      this.#baseHeaders,
      contentTypeOf(spec),
      spec.idempotencyKey === undefined ? undefined : { 'idempotency-key': spec.idempotencyKey },
      options.headers,
    );
    if (spec.multipart !== undefined) delete headers['content-type'];
    const auth = spec.auth ?? 'bearer';
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
    const authenticator = auth === 'none' ? undefined : config.authenticator;
    const mode = spec.validation ?? config.validation.mode;
    const validation = mode === config.validation.mode ? config.validation : { ...config.validation, mode };

    const attempt = async (): Promise<WithResponse<T>> => {
      let token: string | undefined;
      try {
        // A fresh cached token is read synchronously (nearly every call); else the exchange is awaited.
        if (authenticator !== undefined) {
          token = authenticator.currentToken?.() ?? (await authenticator.getToken(signal));
        }
      } catch (error) {
        // The token exchange ran its own retries already: its failure ends the call (p-retry unwraps it).
        throw new AbortError(asError(error));
      }
      try {
        let read = await pacedSend(config, state, () => sendAttempt(config, state, token));
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
        return parseSuccess(context, read, spec.response, validation, spec.select?.bind(spec));
      } catch (error) {
        if (signal?.aborted && !(error instanceof APIUserAbortError)) {
          throw new APIUserAbortError(spec, { cause: signal.reason });
        }
        throw error;
      }
    };

    const loop: RetryLoop = {
      retries: options.maxRetries ?? config.maxRetries,
      retry: config.retry,
      clock: config.clock,
      logger: config.logger,
      call: spec,
      deadlineAt: state.deadlineAt,
      signal,
      // A POST is repeated only with an idempotency key (or when repeating it is harmless).
      repeatable: spec.method !== 'POST' || idempotencyKey !== undefined || spec.retryPost === true,
    };
    // Tracing off (no @opentelemetry/api, no provider) costs these checks and nothing else.
    const { tracing } = config;
    if (tracing?.loading !== undefined) await tracing.loading;
    const span = tracing?.enabled ? startOperationSpan(tracing, config.baseUrl, state) : undefined;
    if (span === undefined) return withRetries(attempt, loop);
    if (tracing?.propagate) span.inject(headers);
    loop.onRetry = (notice) => recordRetry(span, notice);
    return traceOperation(span, state, () => withRetries(attempt, loop));
  }

  // The single re-send after a 401, when the authenticator produced a fresh token.
  async #afterUnauthorized(state: CallState, token: string, first: ReadResponse): Promise<ReadResponse> {
    const { config } = this;
    const authenticator = config.authenticator;
    if (authenticator === undefined || state.refreshedAfter401 === true) return first;
    const signal = state.spec.options?.signal;
    state.refreshedAfter401 = true;
    let fresh: string;
    const waitStarted = config.clock.now();
    try {
      if (!(await authenticator.onUnauthorized(token, signal))) return first;
      fresh = await authenticator.getToken(signal);
    } catch (error) {
      throw new AbortError(asError(error));
    }
    recordWait('unauthorized', config.clock.now() - waitStarted);
    config.logger.debug(`${state.spec.method} ${state.spec.path}: 401, retrying once with a renewed token`);
    return sendAttempt(config, state, fresh);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
