import { z } from 'zod';

/**
 * A required id or slug given to an SDK method for a path segment (`spvSlug`, `personId`, a contract
 * `version`…). It is percent-encoded into the path and the API judges its format; the SDK refuses only what
 * cannot be a real id: an empty string, and `.` or `..` (URL resolution would turn them into another route).
 */
export const PathParam = z
  .string()
  .min(1, 'Required: a non-empty string')
  // A pattern, not a refine: zod checks it without running a function of ours on every call.
  .regex(/^(?!\.{1,2}$)/, 'Must not be "." or ".." (a path segment)');

/** An `Idempotency-Key` header value: visible ASCII characters only (what a header can carry unchanged). */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]+$/, 'Expected visible ASCII characters (no spaces or control characters)');
