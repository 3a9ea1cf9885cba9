import { z } from 'zod';
import { acceptsAsIs } from '../../schemas/accepts-as-is.js';
import { APIError, ResponseValidationError, toValidationIssues } from '../errors/errors.js';
import { isSecretKey, redact, redactText } from '../logging/redact.js';
import type { SecretRegistry } from '../logging/secret-registry.js';
import { headerOf, headOf, type ResponseHead, type TransportResponse } from '../transport/transport.js';
import type { RawResponse, WithResponse } from './api-promise.js';
import type { ResponseValidation } from './response-validation.js';
import { parseRetryAfter } from './retry-policy.js';

/** The request id the API (or its gateway) put on a response. */
export function requestIdOf(response: ReadResponse): string | undefined {
  return response.header('x-request-id') ?? response.header('request-id') ?? undefined;
}

/** Where the response came from, for error messages and the raw response. */
export interface ResponseContext {
  method: string;
  path: string;
  attempts: number;
  idempotencyKey: string | undefined;
  now: number;
  /** The route template for messages that group calls (`/v1/spv-requests/{slug}`); else `path`. */
  route?: string | undefined;
  /** The client's secrets, redacted by value from what an error keeps of a body. */
  secrets?: SecretRegistry | undefined;
}

/** A status, headers and the whole body text of one attempt. */
export interface ReadResponse {
  status: number;
  /** Built on first read for the default transport; prefer {@link ReadResponse.header} for single values. */
  readonly headers: Headers;
  /** One header value, like `headers.get(name)` (`name` lower-case), without building `headers`. */
  header(name: string): string | null;
  /** The headers without the body: what a raw response keeps (keeping this keeps no body text alive). */
  head(): ResponseHead;
  text: string;
}

/** The {@link ReadResponse} of a transport response whose body has been read into `text`. */
export function readResponse(response: TransportResponse, text: string): ReadResponse {
  return new TransportRead(response, text);
}

// A class rather than an object literal with a getter and a closure: one small object per attempt.
class TransportRead implements ReadResponse {
  readonly status: number;
  readonly text: string;
  readonly #response: TransportResponse;

  constructor(response: TransportResponse, text: string) {
    this.status = response.status;
    this.text = text;
    this.#response = response;
  }

  get headers(): Headers {
    return this.#response.headers;
  }

  header(name: string): string | null {
    return headerOf(this.#response, name);
  }

  head(): ResponseHead {
    return headOf(this.#response);
  }
}

/**
 * Parses a 2xx body through `schema` (per `validation`), then `select`s the call's value from it. A body that
 * is not JSON always throws {@link ResponseValidationError}; one that breaks the schema throws it only in
 * `'strict'` mode (the error keeps the redacted body and the idempotency key: the server may already have
 * done the write). Synchronous unless the schema needs async parsing (then a promise): no promise per call.
 */
export function parseSuccess<T, Body>(
  context: ResponseContext,
  response: ReadResponse,
  schema: z.ZodType<Body>,
  validation: ResponseValidation,
  select?: (body: Body) => T,
): WithResponse<T> | Promise<WithResponse<T>> {
  const value = parseBody(context, response);
  if (validation.mode === 'off') return new CallResult(value as Body, context, response, select);
  // The usual body of a schema with nothing to transform: accepted as it is, without zod's copy of it.
  if (acceptsAsIs(schema, value)) return new CallResult(value as Body, context, response, select);
  // Synchronous parsing unless the schema needs async (a few µs less per call, measured in bench/).
  const parsed = parseSyncFirst(schema, value);
  if (parsed instanceof Promise) {
    return parsed.then((result) => checked(result, value, context, response, validation, select));
  }
  return checked(parsed, value, context, response, validation, select);
}

// The schema's verdict per mode: the parsed body, or (`'warn'`) the body as received, or (`'strict'`) a throw.
function checked<T, Body>(
  parsed: z.ZodSafeParseResult<Body>,
  value: unknown,
  context: ResponseContext,
  response: ReadResponse,
  validation: ResponseValidation,
  select: ((body: Body) => T) | undefined,
): WithResponse<T> {
  if (parsed.success) return new CallResult(parsed.data, context, response, select);
  const issues = toValidationIssues(parsed.error.issues);
  if (validation.mode === 'strict') {
    throw validationError(context, response, 'did not match the API spec', {
      issues,
      body: value,
      cause: parsed.error,
    });
  }
  validation.warn(`${context.method} ${context.route ?? context.path}`, response.status, issues);
  return new CallResult(value as Body, context, response, select);
}

/**
 * A call's value with its {@link RawResponse} built on first read of `response`: a plain `await` of a call
 * never reads it (no request-id lookup, no object). `APIPromise.withResponse()` hands out a plain copy.
 */
class CallResult<T, Body> implements WithResponse<T> {
  readonly data: T;
  readonly #context: ResponseContext;
  readonly #read: ReadResponse;
  #response: RawResponse | undefined;

  constructor(body: Body, context: ResponseContext, read: ReadResponse, select?: (body: Body) => T) {
    this.data = select === undefined ? (body as unknown as T) : select(body);
    this.#context = context;
    this.#read = read;
  }

  get response(): RawResponse {
    this.#response ??= rawResponse(this.#context, this.#read);
    return this.#response;
  }
}

// JSON when the content type says so (or when it parses and none is declared), else the text (e.g. the
// HTML of `/docs`); `undefined` for an empty body.
function parseBody(context: ResponseContext, response: ReadResponse): unknown {
  const { text } = response;
  if (text === '') return undefined;
  if (isJsonType(response.header('content-type'))) {
    try {
      return JSON.parse(text);
    } catch {
      // The parser's message quotes the body, which may hold a token: keep it out, and keep no excerpt.
      throw validationError(context, response, 'body is not valid JSON');
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// The last content type seen and its verdict: a client meets one or two, so the pattern rarely runs.
let lastType: { type: string; json: boolean } = { type: 'application/json', json: true };

function isJsonType(type: string | null): boolean {
  if (type === null) return false;
  if (type !== lastType.type) lastType = { type, json: /\bjson\b/i.test(type) };
  return lastType.json;
}

function validationError(
  context: ResponseContext,
  response: ReadResponse,
  summary: string,
  found: { issues?: { path: string; message: string }[]; body?: unknown; cause?: unknown } = {},
): ResponseValidationError {
  const { issues = [], body, cause } = found;
  return new ResponseValidationError(
    {
      method: context.method,
      path: context.path,
      status: response.status,
      requestId: requestIdOf(response),
      idempotencyKey: context.idempotencyKey,
      issues,
      summary,
      body: body === undefined ? undefined : redact(body, { secrets: context.secrets }),
    },
    { cause },
  );
}

// `headers` as an enumerable accessor that turns itself into a plain data property on first read or write:
// most callers never look at the headers of a successful call, so they are not converted for them.
function rawResponse(context: ResponseContext, response: ReadResponse): RawResponse {
  // The getter keeps the headers only: a raw response kept for long (a bulk call keeps one per chunk)
  // must not keep the body text it was parsed from.
  const head = response.head();
  return {
    status: response.status,
    get headers(): Headers {
      return settleHeaders(this, head.headers);
    },
    set headers(value: Headers) {
      settleHeaders(this, value);
    },
    requestId: requestIdOf(response),
    attempts: context.attempts,
    idempotencyKey: context.idempotencyKey,
    replayed: response.header('idempotent-replayed')?.toLowerCase() === 'true',
  };
}

function settleHeaders(target: object, value: Headers): Headers {
  Object.defineProperty(target, 'headers', { value, writable: true, enumerable: true, configurable: true });
  return value;
}

// `safeParseAsync` costs a promise per schema node even when nothing is async; `safeParse` throws
// `$ZodAsyncError` only for schemas with async refinements or transforms, which then parse the async way.
function parseSyncFirst<T>(
  schema: z.ZodType<T>,
  value: unknown,
): z.ZodSafeParseResult<T> | Promise<z.ZodSafeParseResult<T>> {
  try {
    return schema.safeParse(value);
  } catch (error) {
    if (error instanceof z.core.$ZodAsyncError) return schema.safeParseAsync(value);
    throw error;
  }
}

/**
 * Builds the {@link APIError} subclass for an error status from its envelope (or a safe body excerpt). The
 * client's `secrets` are redacted by value, before a non-JSON body is cut to its excerpt.
 */
export function toAPIError(
  context: ResponseContext,
  response: ReadResponse,
  secrets?: SecretRegistry,
): APIError {
  const { status, headers, text } = response;
  return APIError.from({
    status,
    method: context.method,
    path: context.path,
    headers: withoutCredentials(headers),
    requestId: requestIdOf(response),
    idempotencyKey: context.idempotencyKey,
    attempts: context.attempts,
    body: errorBody(text, headers, secrets),
    retryAfterMs: parseRetryAfter(headers.get('retry-after'), context.now),
    secrets,
  });
}

const EXCERPT_LENGTH = 200;

function errorBody(text: string, headers: Headers, secrets: SecretRegistry | undefined): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML page or plain text: keep a short excerpt, markup stripped, secret shapes removed.
    const html = /html/i.test(headers.get('content-type') ?? '') || text.trimStart().startsWith('<');
    const plain = (
      html ? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ') : text
    )
      .replace(/\s+/g, ' ')
      .trim();
    const excerpt = redactText(plain, secrets);
    return excerpt.length > EXCERPT_LENGTH ? `${excerpt.slice(0, EXCERPT_LENGTH)}…` : excerpt;
  }
}

function withoutCredentials(headers: Headers): Headers {
  const out = new Headers();
  for (const [name, value] of headers) if (!isSecretKey(name)) out.append(name, value);
  return out;
}
