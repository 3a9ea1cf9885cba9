import type { z } from 'zod';
import {
  type RequestContext,
  ResponseValidationError,
  toValidationIssues,
  type ValidationIssue,
} from '../errors/errors.js';
import {
  isSecretKey,
  MAX_KEPT_TEXT,
  MAX_REDACTED_BODY,
  REDACTED,
  redact,
  redactText,
} from '../logging/redact.js';
import type { SecretRegistry } from '../logging/secret-registry.js';
import type { ResponseHeaders } from '../transport/transport.js';
import type { RawResponse, WithResponse } from './api-promise.js';
import { isUnrecognized, type ResponseValidation } from './response-validation.js';

// Reading an answer: a 2xx body parsed, checked against the route's schema and made the call's value (or a
// ResponseValidationError); the request id, headers and body excerpt every answer's error also reads.

/** A status, headers and the whole body text of one attempt. */
export interface ReadResponse {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

/** Where the response came from, for error messages and the raw response. */
export interface ResponseContext extends RequestContext {
  now: number;
  /** The route template for messages that group calls (`/v1/spv-requests/{slug}`); else `path`. */
  route?: string | undefined;
  /** The client's secrets, redacted by value from what an error keeps of a body. */
  secrets?: SecretRegistry | undefined;
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
  // Only a `select` makes an unrecognised value.
  if (select !== undefined && isUnrecognized(data))
    validation.unrecognized(`${context.method} ${context.route ?? context.path}`, response.status);
  return { data, response: rawResponse(context, response.status, response.headers) };
}

// The raw response of `.withResponse()`: its WHATWG `Headers` are built once asked for (most callers never
// read them), and it keeps the headers, not the body.
function rawResponse(context: ResponseContext, status: number, source: ResponseHeaders): RawResponse {
  let headers: Headers | undefined;
  return {
    status,
    get headers() {
      headers ??= toHeaders(source);
      return headers;
    },
    requestId: requestIdOf(source),
    attempts: context.attempts,
    idempotencyKey: context.idempotencyKey,
    replayed: source.get('idempotent-replayed')?.toLowerCase() === 'true',
  };
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

const EXCERPT_LENGTH = 200;
// A string field of JSON text, whole or cut short: a credential's value is removed by its name.
const jsonField = /"([^"\\]{1,64})"\s*:\s*"((?:[^"\\]|\\.)*)("|$)/g;

// A JSON error body (up to MAX_REDACTED_BODY; `json: false`, never), else a redacted excerpt of its first
// MAX_KEPT_TEXT characters.
export function errorBody(
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

// The error for a 2xx body that is not what was expected. An `excerpt` keeps the body's text (redacted,
// markup removed, bounded) rather than its parsed value: for a body that is not the route's answer at all.
export function validationError(
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
