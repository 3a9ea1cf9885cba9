import {
  APIConnectionError,
  APITimeoutError,
  PartnerEquityError,
  type RequestContext,
  userAbortError,
} from '../errors/errors.js';
import { logBody } from '../logging/log-body.js';
import { type RedactOptions, redact, redactHeaders } from '../logging/redact.js';
import { readText, type TransportRequest } from '../transport/transport.js';
import { encodeBody } from './build-request.js';
import { type ReadResponse, requestIdOf, toHeaders } from './read-response.js';
import type { RequestSpec } from './request-spec.js';
import type { RequesterConfig } from './requester-config.js';

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
  refreshedAfter401?: boolean;
}

/**
 * Sends one HTTP request and reads the whole response under the attempt's timeout (the per-attempt
 * `timeout`, shortened to what is left of the `deadline`). The timeout runs in real time even when a test
 * injects a manual clock for backoff waits and the deadline: network I/O does.
 */
export async function sendAttempt(
  config: RequesterConfig,
  state: CallState,
  token: string | undefined,
): Promise<ReadResponse> {
  const { clock, logger, transport } = config;
  const { spec } = state;

  let limit = state.timeout;
  let scope: 'attempt' | 'deadline' = 'attempt';
  if (state.deadlineAt !== undefined) {
    const remaining = state.deadlineAt - clock.now();
    if (remaining <= 0) throw deadlineError(contextOf(state), config.deadline);
    if (remaining < limit) {
      limit = remaining;
      scope = 'deadline';
    }
  }

  const headers =
    token === undefined ? state.headers : { ...state.headers, authorization: `Bearer ${token}` };
  const body = encodeBody(spec);
  state.attempts += 1;
  const callerSignal = spec.options?.signal;
  // The attempt's own abort: its timeout (cleared when the attempt settles), and the caller's signal.
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
          ? deadlineError(contextOf(state), config.deadline, error)
          : new APITimeoutError(contextOf(state), { cause: error, message: `timed out after ${limit}ms` });
    } else if (error instanceof PartnerEquityError) failure = error;
    else
      failure = new APIConnectionError(contextOf(state), { cause: error, message: connectionMessage(error) });
    throw failure;
  } finally {
    clearTimeout(timer);
    // Redaction runs only when debug lines are on: a client that does not log pays nothing for it.
    if (config.logLevel === undefined || config.logLevel === 'debug') {
      const durationMs = clock.now() - started;
      const outcome =
        read === undefined ? `failed: ${failure?.message ?? 'unknown error'}` : String(read.status);
      const redaction: RedactOptions = {
        secrets: config.secrets,
        maskPersonalData: config.logPersonalData !== true,
      };
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

function contextOf(state: CallState): RequestContext {
  const { spec } = state;
  return {
    method: spec.method,
    path: spec.path,
    attempts: state.attempts,
    idempotencyKey: state.idempotencyKey,
  };
}

function deadlineError(
  context: RequestContext,
  deadline: number | undefined,
  cause?: unknown,
): APITimeoutError {
  return new APITimeoutError(context, {
    cause,
    scope: 'deadline',
    message: `deadline of ${deadline ?? '?'}ms exceeded after ${context.attempts} attempt(s)`,
  });
}

function connectionMessage(error: unknown): string {
  // Only the error code (ECONNREFUSED, UND_ERR_SOCKET…): causes can quote hosts and URLs.
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code;
  const causeCode = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const shown = typeof code === 'string' ? code : typeof causeCode === 'string' ? causeCode : undefined;
  return shown === undefined ? 'connection failed' : `connection failed (${shown})`;
}

function describeBody(
  spec: RequestSpec<unknown>,
  body: TransportRequest['body'],
  redaction: RedactOptions,
): unknown {
  if (body === undefined) return undefined;
  if (spec.json !== undefined) return logBody(spec.json, redaction);
  if (spec.form !== undefined) return logBody(spec.form, redaction);
  if (typeof body === 'string') return logBody(body, redaction);
  return `[${body.contentType.split(';')[0]}: ${body.length} bytes]`;
}
