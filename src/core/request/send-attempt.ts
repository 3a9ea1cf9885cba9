import { AbortError } from 'p-retry';
import type { z } from 'zod';
import { recordWait } from '../../tracing/tracing.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  PartnerEquityError,
  RateLimitError,
  type RequestContext,
  ResponseValidationError,
  toValidationIssues,
  userAbortError,
  type ValidationIssue,
} from '../errors/errors.js';
import { logBody } from '../logging/log-body.js';
import {
  isSecretKey,
  MAX_KEPT_TEXT,
  MAX_REDACTED_BODY,
  REDACTED,
  type RedactOptions,
  redact,
  redactHeaders,
  redactText,
} from '../logging/redact.js';
import type { SecretRegistry } from '../logging/secret-registry.js';
import { WaitExceeded } from '../rate-limit/rate-limiter.js';
import { type ResponseHeaders, readText, type TransportRequest } from '../transport/transport.js';
import type { MultipartBody } from '../uploads/multipart-body.js';
import type { WithResponse } from './api-promise.js';
import type { RequestSpec } from './request-spec.js';
import type { RequesterConfig } from './requester-config.js';
import type { ResponseValidation } from './response-validation.js';
import { parseRetryAfter } from './retry-policy.js';

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
  if (remaining <= 0) throw deadlineError(contextOf(state), config.deadline);
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
    if (response.status >= 200 && response.status < 300) spec.answered?.();
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
  if (spec.json !== undefined) return spec.jsonText ?? JSON.stringify(spec.json);
  if (spec.form !== undefined) return new URLSearchParams(spec.form).toString();
  return spec.multipart?.();
}

/** Where an attempt's answer came from: for its error, its parsed value and the raw response. */
export function responseContext(config: RequesterConfig, state: CallState): ResponseContext {
  return { ...contextOf(state), route: state.spec.route, secrets: config.secrets, now: config.clock.now() };
}

function contextOf({ spec, attempts, idempotencyKey }: CallState): RequestContext {
  return { method: spec.method, path: spec.path, attempts, idempotencyKey };
}

function deadlineError(context: RequestContext, deadline: number | undefined, cause?: unknown) {
  return new APITimeoutError(context, {
    cause,
    scope: 'deadline',
    message: `deadline of ${deadline ?? '?'}ms exceeded after ${context.attempts} attempt(s)`,
  });
}

function connectionMessage(error: unknown): string {
  // Only the error code (ECONNREFUSED, UND_ERR_SOCKET…): causes can quote hosts and URLs.
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  const shown = [code, cause?.code].find((c) => typeof c === 'string');
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

/** The request id the API (or its gateway) put on a response. */
export function requestIdOf(
  headers: ResponseHeaders,
  redactWith?: { secrets?: SecretRegistry | undefined },
): string | undefined {
  const id = headers.get('x-request-id') ?? headers.get('request-id');
  if (id === null) return undefined;
  // The server's text: in errors and log lines, one that carries a token is redacted.
  return redactWith === undefined ? id : redactText(id, redactWith.secrets);
}

/**
 * A 2xx body whose shape the SDK does not recognise, at a place where the spec shows none (contract
 * versions and document lists): the body exactly as the server sent it, never reshaped into an empty or
 * partial result. Tell it apart with `'unrecognized' in result`.
 *
 * @example
 * ```ts
 * const templates = await client.contracts.templates.list(version);
 * if ('unrecognized' in templates) console.warn('new list shape', templates.unrecognized);
 * else for (const template of templates) console.log(template.name);
 * ```
 */
export interface Unrecognized {
  readonly unrecognized: unknown;
}

const unrecognizedResults = new WeakSet<object>();

/** What a `select` returns for a body it does not recognise, with the `fields` its result type also has. */
export function unrecognized<Fields extends object>(body: unknown, fields?: Fields): Fields & Unrecognized {
  const result = { ...fields, unrecognized: body } as Fields & Unrecognized;
  unrecognizedResults.add(result);
  return result;
}

/** Where the response came from, for error messages and the raw response. */
export interface ResponseContext extends RequestContext {
  now: number;
  /** The route template for messages that group calls (`/v1/spv-requests/{slug}`); else `path`. */
  route?: string | undefined;
  /** The client's secrets, redacted by value from what an error keeps of a body. */
  secrets?: SecretRegistry | undefined;
}

/** A status, headers and the whole body text of one attempt. */
export interface ReadResponse {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

/** The WHATWG `Headers` of a response (made once asked for: a raw response keeps them, not the body). */
export function toHeaders(headers: ResponseHeaders): Headers {
  return headers instanceof Headers ? headers : new Headers([...headers]);
}

/**
 * Parses a 2xx body with `schema` (per `validation`) and `select`s the call's value. A body that is not what
 * the route returns (not JSON, or JSON of another type) throws
 * {@link ResponseValidationError} in every mode, unless the route shows no shape (`shown: false`); one that
 * breaks a field of the schema throws it only in `'strict'` mode.
 */
export function parseSuccess<T, Body>(
  context: ResponseContext,
  response: ReadResponse,
  schema: z.ZodType<Body>,
  validation: ResponseValidation,
  select?: (body: Body) => T,
  shown = true,
): WithResponse<T> {
  const value = parseBody(context, response, schema);
  const wrong = shown ? shapeIssues(schema, value) : [];
  if (wrong.length > 0)
    throw validationError(context, response, 'is not what the route returns', wrong, true);
  let body = value as Body;
  if (validation.mode !== 'off') {
    const parsed = schema.safeParse(value);
    if (parsed.success) body = parsed.data;
    else {
      const issues = toValidationIssues(parsed.error.issues);
      if (validation.mode === 'strict')
        throw validationError(
          context,
          response,
          'did not match the API spec',
          issues,
          false,
          value,
          parsed.error,
        );
      validation.warn(`${context.method} ${context.route ?? context.path}`, response.status, issues);
    }
  }
  const data = select === undefined ? (body as unknown as T) : select(body);
  if (typeof data === 'object' && data !== null && unrecognizedResults.has(data))
    validation.unrecognized(`${context.method} ${context.route ?? context.path}`, response.status);
  const { status, headers } = response;
  const raw = {
    status,
    requestId: requestIdOf(headers),
    attempts: context.attempts,
    idempotencyKey: context.idempotencyKey,
    replayed: headers.get('idempotent-replayed')?.toLowerCase() === 'true',
  };
  // `headers` by one shared getter, not a getter written in the literal: that one was a new accessor for
  // every response, and kept V8 from collecting any request young (bench findings, "GC modes").
  Object.defineProperty(raw, SOURCE, { value: headers });
  Object.defineProperty(raw, 'headers', { get: lazyHeaders, enumerable: true, configurable: true });
  return { data, response: raw as typeof raw & { headers: Headers } };
}

const SOURCE = Symbol('response headers');

// The WHATWG `Headers` of a raw response, made once asked for (most callers never read them).
function lazyHeaders(this: { [SOURCE]: ResponseHeaders }): Headers {
  const headers = toHeaders(this[SOURCE]);
  Object.defineProperty(this, 'headers', { value: headers, enumerable: true });
  return headers;
}

// JSON when it parses; the text only where the route returns text (the HTML of `/docs`).
function parseBody(context: ResponseContext, response: ReadResponse, schema: z.ZodType): unknown {
  const { text } = response;
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message quotes the body, which may hold a token: keep it out (the excerpt is redacted).
    if (jsonKinds(schema)?.has('string') === true) return text;
    throw validationError(context, response, 'is not JSON', [], true);
  }
}

type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'undefined';

const kindsOfSchema = new WeakMap<z.ZodType, ReadonlySet<JsonKind> | null>();

/** The JSON types a schema accepts at its top; `undefined` when it accepts any. Worked out once a schema. */
function jsonKinds(schema: z.ZodType): ReadonlySet<JsonKind> | undefined {
  let kinds = kindsOfSchema.get(schema);
  if (kinds === undefined) {
    kinds = topKinds(schema) ?? null;
    kindsOfSchema.set(schema, kinds);
  }
  return kinds ?? undefined;
}

function topKinds(schema: z.ZodType): Set<JsonKind> | undefined {
  const def = schema._zod.def as unknown as {
    type: string;
    innerType?: z.ZodType;
    in?: z.ZodType;
    left?: z.ZodType;
    options?: z.ZodType[];
    getter?: () => z.ZodType;
  };
  const also = (inner: z.ZodType | undefined, kind: JsonKind) => {
    const kinds = inner && topKinds(inner);
    return kinds && new Set([...kinds, kind]);
  };
  switch (def.type) {
    case 'object':
    case 'record':
      return new Set(['object']);
    case 'array':
    case 'tuple':
      return new Set(['array']);
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return new Set([def.type]);
    case 'optional':
      return also(def.innerType, 'undefined');
    case 'nullable':
      return also(def.innerType, 'null');
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType && topKinds(def.innerType);
    case 'pipe':
      return def.in && topKinds(def.in);
    case 'intersection':
      return def.left && topKinds(def.left);
    case 'lazy':
      return def.getter && topKinds(def.getter());
    case 'union': {
      const each = (def.options ?? []).map(topKinds);
      return each.includes(undefined) ? undefined : new Set(each.flatMap((kinds) => [...(kinds ?? [])]));
    }
    default:
      return undefined;
  }
}

const kindOf = (value: unknown): JsonKind =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : (typeof value as JsonKind);

/** A top-level type the schema does not accept: a body that is not the route's answer at all. */
function shapeIssues(schema: z.ZodType, value: unknown): ValidationIssue[] {
  const kinds = jsonKinds(schema);
  const kind = kindOf(value);
  if (kinds === undefined || kinds.has(kind)) return [];
  return [{ path: '', message: `expected ${[...kinds].join(' or ')}, got ${kind}` }];
}

// The error for a 2xx body that is not what was expected. An `excerpt` keeps the body's text (redacted,
// markup removed, bounded) rather than its parsed value: for a body that is not the route's answer at all.
function validationError(
  context: ResponseContext,
  response: ReadResponse,
  summary: string,
  issues: ValidationIssue[],
  excerpt: boolean,
  body?: unknown,
  cause?: unknown,
): ResponseValidationError {
  const contentType = response.headers.get('content-type') ?? undefined;
  return new ResponseValidationError(
    {
      method: context.method,
      path: context.path,
      status: response.status,
      contentType,
      requestId: requestIdOf(response.headers, context),
      idempotencyKey: context.idempotencyKey,
      issues,
      summary: excerpt && contentType !== undefined ? `${summary} (${contentType.split(';')[0]})` : summary,
      // A body too long to redact field by field is kept as a redacted excerpt of its text.
      body: excerpt
        ? errorBody(response.text, response.headers, context.secrets, false)
        : body === undefined
          ? undefined
          : redact(response.text.length > MAX_REDACTED_BODY ? response.text : body, {
              secrets: context.secrets,
            }),
    },
    { cause },
  );
}

/** The {@link APIError} subclass of an error status, its body's envelope or excerpt redacted by value. */
export function toAPIError(
  context: ResponseContext,
  response: ReadResponse,
  secrets?: SecretRegistry,
): APIError {
  const { status, text, headers } = response;
  return APIError.from({
    status,
    method: context.method,
    path: context.path,
    headers: toHeaders(headers),
    requestId: requestIdOf(headers, { secrets }),
    idempotencyKey: context.idempotencyKey,
    attempts: context.attempts,
    body: errorBody(text, headers, secrets),
    retryAfterMs: parseRetryAfter(headers.get('retry-after'), context.now),
    secrets,
  });
}

const EXCERPT_LENGTH = 200;
// A string field of JSON text, whole or cut short: a credential's value is removed by its name.
const jsonField = /"([^"\\]{1,64})"\s*:\s*"((?:[^"\\]|\\.)*)("|$)/g;

// A JSON error body (up to MAX_REDACTED_BODY; `json: false`, never), else a redacted excerpt of its first
// MAX_KEPT_TEXT characters.
function errorBody(
  text: string,
  headers: ResponseHeaders,
  secrets: SecretRegistry | undefined,
  json = true,
): unknown {
  if (text === '') return undefined;
  if (json && text.length <= MAX_REDACTED_BODY) {
    try {
      return JSON.parse(text);
    } catch {}
  }
  const read = text.slice(0, MAX_KEPT_TEXT);
  const html = /html/i.test(headers.get('content-type') ?? '') || read.trimStart().startsWith('<');
  const plain = (
    html ? read.replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ').replace(/<[^<>]*>/g, ' ') : read
  )
    .replace(/\s+/g, ' ')
    .trim();
  const excerpt = redactText(plain, secrets).replace(jsonField, (field, name: string, _value, end: string) =>
    isSecretKey(name) ? `"${name}":"${REDACTED}${end}` : field,
  );
  return excerpt.length > EXCERPT_LENGTH ? `${excerpt.slice(0, EXCERPT_LENGTH)}…` : excerpt;
}

/**
 * Sends one bearer attempt in its turn (at once without a limiter): the limiter is only a gate. A 429 that
 * says when to come back marks the call `paced` (the retry loop sends it again, and the limiter holds the
 * next turn); once the waits would pass `maxRateLimitWait`, `RateLimitError`.
 */
export async function gatedSend(
  config: RequesterConfig,
  state: CallState,
  send: () => Promise<ReadResponse>,
): Promise<ReadResponse> {
  const limiter = config.rateLimiter;
  state.paced = false;
  if (limiter === undefined || (state.spec.auth ?? 'bearer') !== 'bearer') return send();
  const { clock } = config;
  const options = state.spec.options;
  const maxWait = options?.maxRateLimitWait ?? config.maxRateLimitWait ?? 60_000;
  const turn = limiter.turn(maxWait - state.rateLimitWaited, options?.signal);
  if (turn !== undefined) {
    const started = clock.now();
    await turn.catch((error: unknown) => {
      throw error instanceof WaitExceeded
        ? new AbortError(gaveUp(config, state, state.limited, state.rateLimitWaited + error.waitedMs))
        : error;
    });
    const ms = clock.now() - started;
    state.rateLimitWaited += ms;
    if (ms > 0) recordWait(state.limited === undefined ? 'rate_limit' : 'retry_after', ms);
  }
  let read: ReadResponse;
  try {
    read = await send();
  } catch (error) {
    limiter.observe(undefined);
    throw error;
  }
  const retryIn = limiter.observe(read, maxWait - state.rateLimitWaited);
  // A POST without an idempotency key is never sent twice, 429 or not.
  if (retryIn === undefined || !state.repeatable) return read;
  state.limited = read;
  if (state.rateLimitWaited + retryIn > maxWait)
    throw new AbortError(gaveUp(config, state, read, state.rateLimitWaited, retryIn));
  state.paced = true;
  config.logger.debug(`${state.spec.method} ${state.spec.path}: 429, sent again in turn (${retryIn}ms)`);
  return read;
}

// The call gave up waiting for the rate limit: with the 429 it last received, if any (else none was sent).
function gaveUp(
  config: RequesterConfig,
  state: CallState,
  read: ReadResponse | undefined,
  waitedMs: number,
  retryAfterMs?: number,
) {
  const context = contextOf(state);
  const answer = read && toAPIError(responseContext(config, state), read, config.secrets);
  return new RateLimitError({
    ...context,
    status: 429,
    answered: read !== undefined,
    headers: answer?.headers ?? new Headers(),
    requestId: answer?.requestId,
    body: answer?.body,
    retryAfterMs: retryAfterMs ?? answer?.retryAfterMs,
    waitedMs,
    secrets: config.secrets,
  });
}
