import type { z } from 'zod';
import { toValidationIssues, type ValidationIssue } from '../errors/errors.js';
import type { ResponseHeaders } from '../transport/transport.js';
import type { RawResponse, WithResponse } from './api-promise.js';
import {
  type ReadResponse,
  type ResponseContext,
  requestIdOf,
  toHeaders,
  validationError,
} from './response-error.js';
import { isUnrecognized, type ResponseValidation } from './response-validation.js';

// Reading a 2xx answer: its body parsed, checked against the route's schema, and the call's value.

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
  if (isUnrecognized(data))
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
