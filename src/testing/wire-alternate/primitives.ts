import { z } from 'zod';

/**
 * The alternate profile's timestamps: ISO 8601 with a `+00:00` offset and microseconds
 * (`2026-11-23T18:00:00.123000+00:00`), as Python's `datetime.isoformat()` writes an aware UTC time.
 */
export const Timestamp = z.iso.datetime({ offset: true, precision: 6 });

/** A field the alternate profile always sends, `null` when it has no value (Pydantic's `Optional[...] = None`). */
export const orNull = <T extends z.ZodType>(schema: T) => schema.nullable();
