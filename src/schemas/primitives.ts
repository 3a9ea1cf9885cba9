import { z } from 'zod';

/**
 * An ISO 8601 date-time as the server sent it (`2026-05-01T12:00:00Z`, `…+00:00`, any fractional precision).
 * Kept as the server's string, never refused for its format: `new Date(value)` reads every such form.
 */
export const Timestamp = z.string();

/**
 * A field the spec marks conditional ("present when …") or leaves unshown: absent, `null` (how FastAPI and
 * Pydantic services send absent optional fields) or the value.
 */
export function nullish<T extends z.ZodType>(schema: T) {
  return schema.nullish();
}

/** Every field of `shape` made {@link nullish}: for shapes the spec leaves open. */
export function allNullish<Shape extends z.ZodRawShape>(
  shape: Shape,
): { [K in keyof Shape]: z.ZodOptional<z.ZodNullable<Shape[K]>> } {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) out[key] = (schema as z.ZodType).nullish();
  return out as { [K in keyof Shape]: z.ZodOptional<z.ZodNullable<Shape[K]>> };
}

/** A field the spec types as a URL: absolute or relative (`/files/…`), kept as the server's string. */
export const UrlString = z.string();

/**
 * A decimal amount written as a string, as the API carries money (`"250000"`, `"1.5"`): digits with an
 * optional fraction. No bound on digits: the server judges the amount.
 */
export const DecimalString = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'Expected a decimal string such as "1000" or "1000.50"')
  .meta({ description: 'Decimal number written as a string.', examples: ['250000.00'] });

/** A currency code: three letters (ISO 4217, e.g. `EUR`). The set of codes is the server's to judge. */
export const CurrencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'Expected a three-letter currency code such as "EUR"')
  .meta({ examples: ['EUR'] });

/** A two-letter country code (ISO 3166-1 alpha-2, e.g. `DE`). The set of codes is the server's to judge. */
export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'Expected a two-letter country code such as "DE"')
  .meta({ examples: ['DE'] });

/** What an e-mail address is checked against: one `@` with something on each side, no whitespace. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/**
 * An e-mail address: the one rule the SDK's input check, the fake API and `partner-equity import --check`
 * share, so a row one of them passes is never refused by another for its format. Letters outside ASCII
 * are addresses too (RFC 6531: `chloé@exemple.fr`). No length bound: the spec states none.
 */
export const EmailAddress = z.string().regex(EMAIL_PATTERN, 'Expected an e-mail address');

/** A real calendar date `YYYY-MM-DD` (leap years checked). */
export const CalendarDate = z.iso.date();

/** A JSON object whose fields the spec leaves open: every field kept as sent. */
export const JsonObject = z.record(z.string(), z.unknown());
