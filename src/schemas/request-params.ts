import { z } from 'zod';

/**
 * A required id or slug given to an SDK method for a path segment (`spvSlug`, `personId`, a contract
 * `version`…). It is percent-encoded into the path and the API judges its format; the SDK refuses only what
 * cannot be a real id: an empty string, `.` or `..` (URL resolution would turn them into another route),
 * and more than 256 characters (an oversized URL the server refuses anyway).
 */
export const PathParam = z
  .string()
  .min(1, 'Required: a non-empty string')
  .max(256, 'Too long for an id: at most 256 characters')
  .refine((value) => value !== '.' && value !== '..', 'Must not be "." or ".." (a path segment)');

/** An `Idempotency-Key` header value: 1-255 visible ASCII characters. */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'Expected 1-255 visible ASCII characters (no spaces)');
