import { z } from 'zod';
import { InputValidationError, toValidationIssues, type ValidationIssue } from './errors/errors.js';

/**
 * The issues of an options object against `schema`, each named by its field, and the parsed value. A value
 * that is not a plain object is one issue named `root`. Explicit `undefined`s mean "not set" and are dropped
 * first, so strict schemas and defaults treat them alike. Values are never quoted (some are secrets).
 */
export function optionIssues<S extends z.ZodType>(
  schema: S,
  options: unknown,
  root = '',
): { data: z.output<S>; issues: [] } | { data: undefined; issues: ValidationIssue[] } {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return { data: undefined, issues: [{ path: root, message: 'expected an options object' }] };
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const parsed = schema.safeParse(defined);
  if (parsed.success) return { data: parsed.data, issues: [] };
  const issues = toValidationIssues(parsed.error.issues);
  return { data: undefined, issues: issues.map((i) => (i.path === '' ? { ...i, path: root } : i)) };
}

/**
 * Checks `options` against `schema` ({@link optionIssues}) and throws one {@link InputValidationError}
 * naming every bad field; returns `options` as given.
 */
export function checkOptions<T>(subject: string, schema: z.ZodType, options: unknown): T {
  const { issues } = optionIssues(schema, options);
  if (issues.length > 0) throw new InputValidationError(subject, issues);
  return options as T;
}

/** The longest delay a Node.js timer takes (2^31 - 1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A number of milliseconds that ends up in a timer: finite, `> 0` (or `>= 0` with `zero: true`) and at most
 * {@link MAX_TIMER_MS}. Every duration option, of the client or of one call, is checked with it.
 */
export function milliseconds({ zero = false } = {}) {
  const number = z.number().finite('must be a finite number of milliseconds');
  return (
    zero
      ? number.min(0, 'must be a number of milliseconds >= 0')
      : number.positive('must be a positive number of milliseconds')
  ).max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest timer Node.js sets`);
}
