import { z } from 'zod';

/**
 * A schema built on first use instead of at import: `build` runs once, the first time the schema parses (or
 * is unwrapped), and its result is kept. Building every zod schema at module load was most of the SDK's own
 * import time; an app (or a serverless function) pays now only for the schemas its calls use.
 *
 * The result is a zod schema (`z.lazy`): `.parse`/`.safeParse`, composition (`z.array(X)`, `.nullish()`),
 * `z.infer` and `z.toJSONSchema` work as on the built one. What only an object schema has (`.shape`,
 * `.extend`) is on `.unwrap()`, which returns the built schema itself (the same instance every time).
 *
 * @example
 * ```ts
 * export const LumpSum = lazySchema(() => z.looseObject({ currency: CurrencyCode, value: DecimalString }));
 * LumpSum.unwrap().shape.currency;
 * ```
 */
export function lazySchema<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  let built: T | undefined;
  // zod's `unwrap()` calls the getter each time: the cache keeps one instance (and one build).
  return z.lazy(() => {
    built ??= build();
    return built;
  });
}
