import { z } from 'zod';
import { VERSION } from '../../version.js';
import { optionIssues } from '../check-options.js';
import { InputValidationError, type ValidationIssue } from '../errors/errors.js';
import type { MultipartBody } from '../uploads/multipart-body.js';
import type { RequestOptions } from './request-options.js';
import type { QueryParams, RequestSpec } from './request-spec.js';

/**
 * `baseUrl` joined with `path` and the query. A base path is kept: `https://host/prefix` + `/v1/x` gives
 * `https://host/prefix/v1/x`.
 */
export function buildUrl(baseUrl: URL, path: string, query: QueryParams | undefined): URL {
  const url = new URL(`${prefixOf(baseUrl)}${path.startsWith('/') ? path : `/${path}`}`);
  if (query === undefined) return url;
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.append(name, String(value));
  }
  return url;
}

// Origin plus base path without trailing slashes.
function prefixOf(baseUrl: URL): string {
  return `${baseUrl.origin}${baseUrl.pathname.replace(/\/+$/, '')}`;
}

/** `partner-equity-sdk/<version> node/<version>`. */
export function userAgent(): string {
  const proc = (globalThis as { process?: { version?: string } }).process;
  return `partner-equity-sdk/${VERSION} node/${proc?.version ?? 'unknown'}`;
}

/** Lower-cases header names; later sources win. */
export function mergeHeaders(
  ...sources: (Readonly<Record<string, string>> | undefined)[]
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    if (source === undefined) continue;
    for (const name of Object.keys(source)) out[name.toLowerCase()] = source[name] as string;
  }
  return out;
}

/** The body kind's `content-type` (none for multipart: the transport adds it with the boundary). */
export function contentTypeOf(spec: RequestSpec<unknown>): Readonly<Record<string, string>> | undefined {
  if (spec.json !== undefined) return { 'content-type': 'application/json' };
  if (spec.form !== undefined) return { 'content-type': 'application/x-www-form-urlencoded' };
  return undefined;
}

/** The body to send for one attempt; multipart bodies are rebuilt every time. */
export function encodeBody(spec: RequestSpec<unknown>): string | MultipartBody | undefined {
  if (spec.json !== undefined) return spec.jsonText ?? JSON.stringify(spec.json);
  if (spec.form !== undefined) return new URLSearchParams(spec.form).toString();
  if (spec.multipart !== undefined) return spec.multipart();
  return undefined;
}

/** Rejects a spec with more than one body kind: a programming error in a resource module. */
export function assertOneBody(spec: RequestSpec<unknown>): void {
  const kinds =
    Number(spec.json !== undefined) + Number(spec.form !== undefined) + Number(spec.multipart !== undefined);
  if (kinds > 1)
    throw new TypeError(`${spec.method} ${spec.path}: give at most one of json, form, multipart`);
}

// RFC 9110 token characters for a header name. A value may hold tabs, visible ASCII, spaces and obs-text
// only (what undici accepts): a CR or LF would inject a header, and undici would refuse any control
// character with an error that looked like a failed connection, retried.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A header map (per-call `headers`, the client's `defaultHeaders`): each issue names its header. */
export const HeadersSchema = z.record(
  z.string().regex(HEADER_NAME, 'is not a valid header name'),
  z.string().regex(HEADER_VALUE, 'must not contain line breaks, NUL or other control characters'),
);

const RequestOptionsSchema = z.object({
  timeout: z.number().finite().positive('must be a positive number of milliseconds').optional(),
  maxRetries: z.int().min(0, 'must be an integer >= 0').optional(),
  signal: z.instanceof(AbortSignal, { message: 'must be an AbortSignal' }).optional(),
  headers: HeadersSchema.optional(),
  maxRateLimitWait: z.number().finite().min(0, 'must be a number of milliseconds >= 0').optional(),
});

/**
 * A call's {@link RequestOptions} (a method's own extras left out), or issues naming every bad one, so that
 * a plain-JS caller's wrong `signal` or header surfaces as `InputValidationError`. `null`/`undefined`: none.
 */
export function parseRequestOptions(options: unknown): {
  data: RequestOptions | undefined;
  issues: ValidationIssue[];
} {
  if (options === undefined || options === null) return { data: undefined, issues: [] };
  return optionIssues(RequestOptionsSchema, options, 'options') as {
    data: RequestOptions | undefined;
    issues: ValidationIssue[];
  };
}

/** {@link parseRequestOptions} for a spec built by hand; throws {@link InputValidationError}. */
export function checkRequestOptions(spec: RequestSpec<unknown>): void {
  const { issues } = parseRequestOptions(spec.options);
  if (issues.length > 0)
    throw new InputValidationError(`request options for ${spec.method} ${spec.path}`, issues);
}

/** `route` with every `{spv_slug}` replaced by `params.spvSlug`, percent-encoded. */
export function fillRoute(route: string, params: Readonly<Record<string, string>> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())];
    if (value === undefined) throw new TypeError(`${route}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
