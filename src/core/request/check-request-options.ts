import { InputValidationError, type ValidationIssue } from '../errors/errors.js';
import type { RequestSpec } from './request-spec.js';

// RFC 9110 token characters for a header name. A value may hold tabs, visible ASCII, spaces and obs-text
// only (what undici accepts): a CR or LF would inject a header, and undici would refuse any control
// character with an error that looked like a failed connection, retried.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The issues of a header map (per-call `headers`, the client's `defaultHeaders`), each named
 * `<path>.<header name>`; none when it is fine.
 */
export function headerIssues(headers: unknown, path: string): ValidationIssue[] {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    return [{ path, message: 'must be an object of header names to string values' }];
  }
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name))
      issues.push({ path: `${path}.${name}`, message: 'is not a valid header name' });
    else if (typeof value !== 'string') issues.push({ path: `${path}.${name}`, message: 'must be a string' });
    else if (BAD_HEADER_VALUE.test(value)) {
      issues.push({
        path: `${path}.${name}`,
        message: 'must not contain line breaks, NUL or other control characters',
      });
    }
  }
  return issues;
}

/**
 * Checks a call's {@link RequestOptions} before anything is sent, naming every bad one: plain-JS callers
 * (and values from config files) can pass anything, and a wrong `signal` or a header with a line break
 * must surface as `InputValidationError`, not as a `TypeError` or a "connection error" from the transport.
 *
 * @throws InputValidationError
 */
export function checkRequestOptions(spec: RequestSpec<unknown>): void {
  const raw: unknown = spec.options;
  if (raw === undefined || raw === null) return;
  const subject = `request options for ${spec.method} ${spec.path}`;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new InputValidationError(subject, [{ path: 'options', message: 'must be an object' }]);
  }
  const options = raw as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const { timeout, maxRetries, signal, headers } = options;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)) {
    issues.push({ path: 'timeout', message: 'must be a positive number of milliseconds' });
  }
  if (maxRetries !== undefined && !(Number.isSafeInteger(maxRetries) && (maxRetries as number) >= 0)) {
    issues.push({ path: 'maxRetries', message: 'must be an integer >= 0' });
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    issues.push({ path: 'signal', message: 'must be an AbortSignal' });
  }
  if (headers !== undefined) issues.push(...headerIssues(headers, 'headers'));
  if (issues.length > 0) throw new InputValidationError(subject, issues);
}
