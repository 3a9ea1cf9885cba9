import type { z } from 'zod';
import type { AttributeProblem, ValidationProblem } from './http-problem.js';

type Issue = z.core.$ZodIssue;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** True when the issue is a required value that is absent, not merely of the wrong type. */
export function isMissing(issue: Issue, input: unknown): boolean {
  return issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
}

// Pydantic-style `type` strings, so a 422 from the fake looks like one from a FastAPI service.
function issueType(issue: Issue, input: unknown): string {
  if (isMissing(issue, input)) return 'missing';
  switch (issue.code) {
    case 'invalid_type':
      return `${issue.expected === 'record' ? 'dict' : issue.expected}_type`;
    case 'too_small':
      return issue.origin === 'array'
        ? 'too_short'
        : issue.origin === 'string'
          ? 'string_too_short'
          : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'array'
        ? 'too_long'
        : issue.origin === 'string'
          ? 'string_too_long'
          : 'less_than_equal';
    case 'invalid_value':
      return 'enum';
    case 'invalid_format':
      return 'string_pattern_mismatch';
    case 'unrecognized_keys':
      return 'extra_forbidden';
    default:
      return 'value_error';
  }
}

/** zod issues as the 422 envelope's `detail`, each located under `prefix` (`['body']`, `['query']`…). */
export function toValidationProblems(
  error: z.ZodError,
  input: unknown,
  prefix: string[],
): ValidationProblem[] {
  return error.issues.flatMap((issue) => {
    const loc = [...prefix, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        loc: [...loc, key],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      }));
    }
    const msg = isMissing(issue, input) ? 'Field required' : issue.message;
    return [{ loc, msg, type: issueType(issue, input) }];
  });
}

/** A zod path as a dotted attribute name: `['shareClasses', 0, 'carryPercent']` → `shareClasses[0].carryPercent`. */
export function attributeName(path: readonly PropertyKey[], base = ''): string {
  let out = base;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

// Stable attribute error codes of 400 responses (contract and subscription validation).
function attributeCode(issue: Issue, input: unknown): string {
  if (isMissing(issue, input)) return 'required';
  switch (issue.code) {
    case 'invalid_type':
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
      return issue.code;
    case 'unrecognized_keys':
      return 'unknown_attribute';
    default:
      return 'invalid_value';
  }
}

/** zod issues as a 400 response's `validationErrors`, attribute names relative to `base`. */
export function toAttributeProblems(error: z.ZodError, input: unknown, base = ''): AttributeProblem[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        attribute: attributeName([...issue.path, key], base),
        code: 'unknown_attribute',
        message: `Unknown attribute "${key}"`,
      }));
    }
    const message = isMissing(issue, input) ? 'Required attribute is missing' : issue.message;
    return [{ attribute: attributeName(issue.path, base), code: attributeCode(issue, input), message }];
  });
}
