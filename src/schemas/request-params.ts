import { z } from 'zod';

/**
 * A required id or slug given to an SDK method for a path segment (`spvSlug`, `personId`, a contract
 * `version`…). The SDK only insists it is there; it is percent-encoded into the path and the API judges
 * its format.
 */
export const PathParam = z.string().min(1, 'Required: a non-empty string');

/** An `Idempotency-Key` header value: 1-255 visible ASCII characters. */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'Expected 1-255 visible ASCII characters (no spaces)');
