import type { z } from 'zod';
import { InputValidationError, toValidationIssues, type ValidationIssue } from '../core/errors/errors.js';
import { APIPromise } from '../core/request/api-promise.js';
import type { RequestOptions } from '../core/request/request-options.js';

/**
 * Parses a method's arguments with `schema`, or throws one {@link InputValidationError} naming every bad
 * field (paths such as `subscriptions.2.lumpSum.value`). Nothing has been sent at that point.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, subject: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new InputValidationError(subject, toValidationIssues(result.error.issues));
}

/** Like {@link parseInput}, but returns the issues (for merging with checks that run later). */
export function inputIssues<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { data: z.output<S>; issues: [] } | { data: undefined; issues: ValidationIssue[] } {
  const result = schema.safeParse(value);
  return result.success
    ? { data: result.data, issues: [] }
    : { data: undefined, issues: toValidationIssues(result.error.issues) };
}

/**
 * Runs `build` and turns a synchronous throw (bad input) into a rejected {@link APIPromise}, so every
 * method reports through its promise: `.catch()` and `await` see the same errors.
 */
export function guarded<T>(build: () => APIPromise<T>): APIPromise<T> {
  try {
    return build();
  } catch (error) {
    return new APIPromise<T>(Promise.reject(error));
  }
}

/** The per-call options the pipeline knows, without the method's own extras (keys, callbacks…). */
export function requestOptions(options: RequestOptions | undefined): RequestOptions | undefined {
  if (options === undefined || options === null) return undefined;
  // Not an object (plain-JS callers): handed on as is, so the pipeline refuses it by name.
  if (typeof options !== 'object' || Array.isArray(options)) return options;
  const picked: RequestOptions = {};
  if (options.signal !== undefined) picked.signal = options.signal;
  if (options.timeout !== undefined) picked.timeout = options.timeout;
  if (options.maxRetries !== undefined) picked.maxRetries = options.maxRetries;
  if (options.headers !== undefined) picked.headers = options.headers;
  return picked;
}
