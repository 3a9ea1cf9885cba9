import { z } from 'zod';
import type { FaultMatch, FaultSpec } from './fault-injector.js';

const FaultJsonSchema = z.strictObject({
  match: z
    .strictObject({
      method: z.string().min(1).optional(),
      path: z.string().startsWith('/').optional(),
      pathPrefix: z.string().startsWith('/').optional(),
      /** A RegExp's source, as JSON cannot carry a RegExp. */
      pathPattern: z.string().min(1).optional(),
    })
    .optional(),
  times: z.int().min(1).optional(),
  status: z.int().min(400).max(599).optional(),
  retryAfter: z.union([z.number().min(0), z.string().min(1)]).optional(),
  delayMs: z.number().min(0).optional(),
  drop: z.enum(['before', 'after']).optional(),
});

/** A fault as JSON carries it: {@link FaultSpec} with `match.pathPattern` for a RegExp's source. */
export interface FaultJson {
  match?:
    | {
        method?: string | undefined;
        path?: string | undefined;
        pathPrefix?: string | undefined;
        pathPattern?: string | undefined;
      }
    | undefined;
  times?: number | undefined;
  status?: number | undefined;
  retryAfter?: number | string | undefined;
  delayMs?: number | undefined;
  drop?: 'before' | 'after' | undefined;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/**
 * A fault from `partner-equity mock --fault` or `POST /__admin/faults`: JSON (a {@link FaultJson}), or words
 * `[METHOD] <path> [status] [xN] [retry-after=S] [delay=MS] [drop=before|after]`, where `<path>` is exact,
 * ends in `*` for a prefix, or is `re:<RegExp source>`.
 * @example
 * ```ts
 * parseFault('POST /v1/investors 503 x2 retry-after=1');
 * parseFault('/v1/spvs/* 500');
 * parseFault('{"match":{"method":"POST","path":"/v1/investors"},"status":503,"times":2}');
 * ```
 */
export function parseFault(input: string | object): FaultSpec {
  if (typeof input === 'object') return fromJson(input);
  const text = input.trim();
  if (text.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new TypeError(`fault '${text}': not valid JSON`);
    }
    return fromJson(json);
  }
  return fromWords(text);
}

function fromJson(input: unknown): FaultSpec {
  const parsed = FaultJsonSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'fault'}: ${issue.message}`,
    );
    throw new TypeError(`fault: ${problems.join('; ')}`);
  }
  // JSON has no `undefined`: the optional fields zod types as `T | undefined` are absent or set.
  const { match, ...rest } = parsed.data;
  const spec = { ...rest } as FaultSpec;
  if (match !== undefined) {
    const { pathPattern, ...plain } = match;
    if (pathPattern !== undefined && plain.path !== undefined) {
      throw new TypeError('fault: give match.path or match.pathPattern, not both');
    }
    spec.match = {
      ...plain,
      ...(pathPattern === undefined ? {} : { path: regExp(pathPattern) }),
    } as FaultMatch;
  }
  return spec;
}

function fromWords(text: string): FaultSpec {
  const spec: FaultSpec = {};
  const match: NonNullable<FaultSpec['match']> = {};
  for (const word of text.split(/\s+/)) {
    const setting = /^([a-z-]+)=(.*)$/.exec(word);
    if (setting !== null) {
      const [, name, value = ''] = setting;
      if (name === 'retry-after') spec.retryAfter = /^\d+$/.test(value) ? Number(value) : value;
      else if (name === 'delay') spec.delayMs = number(value, word);
      else if (name === 'drop' && (value === 'before' || value === 'after')) spec.drop = value;
      else if (name === 'times') spec.times = number(value, word);
      else throw new TypeError(`fault '${text}': unknown setting '${word}'`);
    } else if (word === 'drop') spec.drop = 'before';
    else if (METHODS.has(word.toUpperCase()) && match.method === undefined) match.method = word.toUpperCase();
    else if (/^\d{3}$/.test(word)) spec.status = Number(word);
    else if (/^[x×]\d+$/i.test(word)) spec.times = number(word.slice(1), word);
    else if (word.startsWith('re:')) match.path = regExp(word.slice(3));
    else if (word.startsWith('/') && word.endsWith('*')) match.pathPrefix = word.slice(0, -1);
    else if (word.startsWith('/')) match.path = word;
    else {
      throw new TypeError(
        `fault '${text}': cannot read '${word}' (expected [METHOD] <path> [status] [xN] [retry-after=S] [delay=MS] [drop=before|after])`,
      );
    }
  }
  if (Object.keys(match).length > 0) spec.match = match;
  return spec;
}

function number(value: string, word: string): number {
  const parsed = Number(value);
  if (value === '' || !Number.isFinite(parsed)) throw new TypeError(`fault: '${word}' needs a number`);
  return parsed;
}

function regExp(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new TypeError(`fault: '${source}' is not a RegExp (${(error as Error).message})`);
  }
}

/** A fault spec as JSON shows it: a RegExp path as `pathPattern`. */
export function faultJson(spec: FaultSpec): FaultJson {
  const { match, ...rest } = spec;
  if (match === undefined) return rest;
  const { path, ...plain } = match;
  return {
    ...rest,
    match: {
      ...plain,
      ...(path instanceof RegExp ? { pathPattern: path.source } : path === undefined ? {} : { path }),
    },
  };
}
