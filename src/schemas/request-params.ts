import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * A required id or slug given to an SDK method for a path segment (`spvSlug`, `personId`, a contract
 * `version`…). It is percent-encoded into the path and the API judges its format; the SDK refuses only what
 * cannot be a real id: an empty string, and `.` or `..` (URL resolution would turn them into another route).
 */
export const PathParam = lazySchema(() =>
  z
    .string()
    .min(1, 'Required: a non-empty string')
    .refine((value) => value !== '.' && value !== '..', 'Must not be "." or ".." (a path segment)'),
);

/**
 * Whether {@link PathParam} accepts `value`, without a zod parse (the hot path of `get(slug)`-style calls);
 * a value it refuses is then parsed by the schema for its messages.
 */
export function isPathParam(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== '.' && value !== '..';
}

/** An `Idempotency-Key` header value: visible ASCII characters only (what a header can carry unchanged). */
export const IdempotencyKey = lazySchema(() =>
  z.string().regex(/^[\x21-\x7e]+$/, 'Expected visible ASCII characters (no spaces or control characters)'),
);
