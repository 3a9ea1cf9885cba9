import fc from 'fast-check';

/** Objects built by JSON.parse, so `__proto__` is an own key, as it is in a parsed request body. */
const pollutingObjects = [
  JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as unknown,
  Object.create(null) as unknown,
];

/** Money and counts as numbers: what a partner's JSON parser or spreadsheet export hands over. */
export const numbers = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(25_000, 25_000.5, 0.1 + 0.2, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53 + 1),
);

/** Anything that is not a string, for fields that must be strings. */
export const nonString: fc.Arbitrary<unknown> = fc.oneof(
  numbers,
  fc.boolean(),
  fc.constant(null),
  fc.bigInt(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
  fc.constantFrom(...pollutingObjects),
  fc.constant(new Date(0)),
  fc.constant(Symbol('hostile')),
  fc.constant(() => 'a function'),
  fc.constant(new String('boxed')),
);

/** Not a plain object, for fields that must be objects. */
export const nonObject: fc.Arbitrary<unknown> = fc.oneof(
  numbers,
  fc.boolean(),
  fc.constant(null),
  fc.string(),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.constant(Symbol('hostile')),
);

/** Strings over any sane field bound: 100 k - 2 M UTF-16 units, ASCII or astral-plane unicode. */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 100_000, max: 2_000_000 }), fc.constantFrom('x', 'é', '𝔘', '\u0000', '\u202e'))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

/** Strings with unicode that no code, id, date or decimal format accepts (letters outside ASCII included). */
export const unicodeJunk: fc.Arbitrary<string> = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .filter((s) => /[^\x20-\x7e]/.test(s));

/** Keys an attacker adds to an input object: prototype pollution classics and arbitrary names. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'),
  fc.string({ minLength: 1, maxLength: 20 }),
);

/** `target` with `key` set as an OWN property (even `__proto__`), as JSON.parse would make it. */
export function withOwnKey(target: object, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

/** A deep copy of `root` with the value at `path` replaced (`undefined` deletes it). */
export function replaceAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const container = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<
    string | number,
    unknown
  >;
  const next = replaceAt(container[head], rest, value);
  if (next === undefined) delete container[head];
  else container[head] = next;
  return container;
}

/** A generated value that fast-check prints briefly (a 2 MB string would flood the failure report). */
export interface Boxed {
  value: unknown;
}

/** Wraps each generated value in a {@link Boxed} whose printed form is short. */
export function boxed(arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<Boxed> {
  return arbitrary.map((value) => ({
    value,
    [fc.toStringMethod]: () =>
      typeof value === 'string' && value.length > 60
        ? `<string of ${value.length} × ${JSON.stringify(value.slice(0, 2))}…>`
        : fc.stringify(value),
  }));
}
