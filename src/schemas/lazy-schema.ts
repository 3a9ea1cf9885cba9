import { z } from 'zod';

/**
 * A schema built on first use instead of at import: `build` runs once, the first time anything reads the
 * schema (a parse, `.shape`, composition into another schema's parse), and its result is kept. Building
 * every zod schema at module load was most of the SDK's own import time; an app (or a serverless function)
 * now pays only for the schemas its calls use.
 *
 * The result stands for the built schema (a proxy with nothing behind it until then, so that not even a
 * zod wrapper is constructed at import): `.parse`/`.safeParse`, `.shape`, `.extend`, composition
 * (`z.array(X)`, `.nullish()`), `z.infer` and `z.toJSONSchema` (metadata given with `.meta()` included)
 * work as on the built one.
 *
 * @example
 * ```ts
 * export const LumpSum = lazySchema(() => z.looseObject({ currency: CurrencyCode, value: DecimalString }));
 * LumpSum.shape.currency; // builds it
 * ```
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => {
    if (built === undefined) {
      built = build();
      // `.meta()` registered the built schema; the proxy is what other schemas hold, so it gets the same
      // entry (zod's JSON Schema reads `_zod` first, which builds, then looks the metadata up).
      const meta = z.globalRegistry.get(built);
      if (meta !== undefined) z.globalRegistry.add(proxy, meta);
    }
    return built;
  };
  // The target is a stand-in; every trap answers from the built schema. zod's methods are closures over
  // the built instance, so `X.nullish()` and the like wrap the real schema, not the proxy.
  const proxy = new Proxy({} as T, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not report a property the stand-in lacks as non-configurable.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
  return proxy;
}
