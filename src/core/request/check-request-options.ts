import { z } from 'zod';
import { InputValidationError, toValidationIssues } from '../errors/errors.js';
import type { RequestSpec } from './request-spec.js';

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
});

/**
 * Checks a call's {@link RequestOptions} before anything is sent, naming every bad one: plain-JS callers
 * (and values from config files) can pass anything, and a wrong `signal` or a header with a line break
 * must surface as `InputValidationError`, not as a `TypeError` or a "connection error" from the transport.
 *
 * @throws InputValidationError
 */
export function checkRequestOptions(spec: RequestSpec<unknown>): void {
  if (spec.options === undefined || spec.options === null) return;
  const parsed = RequestOptionsSchema.safeParse(spec.options);
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error.issues).map((issue) => ({
      ...issue,
      path: issue.path === '' ? 'options' : issue.path,
    }));
    throw new InputValidationError(`request options for ${spec.method} ${spec.path}`, issues);
  }
}
