import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkKey, deriveIdempotencyKey, stableJson } from '../../src/core/request/idempotency.js';

describe('idempotency keys', () => {
  it('derived keys ignore key order and depend on namespace and payload', () => {
    const a = deriveIdempotencyKey('spv-requests', { templateId: 't', attributes: { b: 2, a: 1 } });
    const b = deriveIdempotencyKey('spv-requests', { attributes: { a: 1, b: 2 }, templateId: 't' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(deriveIdempotencyKey('investors', { templateId: 't', attributes: { a: 1, b: 2 } })).not.toBe(a);
    expect(deriveIdempotencyKey('spv-requests', { templateId: 't', attributes: { a: 1, b: 3 } })).not.toBe(a);
    // Separator: ("ab", "c") and ("a", "bc") are different inputs.
    expect(deriveIdempotencyKey('ab', 'c')).not.toBe(deriveIdempotencyKey('a', 'bc'));
  });

  it('is a known SHA-256 value (stable across releases)', () => {
    // Computed independently: printf 'ns\0{"a":1,"b":[true,null]}' | openssl dgst -sha256 -binary | base64url
    expect(deriveIdempotencyKey('ns', { b: [true, null], a: 1 })).toBe(
      'yooBUlMRa8hnPqSkdZVdMRCj_2ei3E5cAHYcTzEKgwA',
    );
  });

  it('stable JSON sorts nested keys and applies toJSON', () => {
    expect(stableJson({ z: { y: 1, x: [{ b: 1, a: 2 }] }, d: new Date(0) })).toBe(
      '{"d":"1970-01-01T00:00:00.000Z","z":{"x":[{"a":2,"b":1}],"y":1}}',
    );
    expect(() => stableJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => stableJson(10n)).toThrow(TypeError);
    expect(() => deriveIdempotencyKey('', {})).toThrow(TypeError);
  });

  it('stable JSON calls toJSON with the key JSON.stringify gives it, on objects and BigInts', () => {
    const keyed = { toJSON: (key: string) => `key:${key}` };
    expect(stableJson({ b: keyed, a: [keyed] })).toBe('{"a":["key:0"],"b":"key:b"}');
    expect(stableJson(keyed)).toBe(JSON.stringify(keyed));
    const bigint = BigInt.prototype as { toJSON?: () => string };
    bigint.toJSON = function (this: bigint) {
      return this.toString();
    };
    try {
      expect(stableJson({ amount: 10n })).toBe('{"amount":"10"}');
    } finally {
      delete bigint.toJSON;
    }
  });

  it('refuses a cycle, and writes an object met twice without one each time', () => {
    const node: Record<string, unknown> = { name: 'a' };
    node.self = { back: node };
    expect(() => stableJson(node)).toThrow(new TypeError('stable JSON: the payload has a cycle'));
    const shared = { b: 1, a: 2 };
    expect(stableJson({ y: shared, x: [shared, shared] })).toBe(
      '{"x":[{"a":2,"b":1},{"a":2,"b":1}],"y":{"a":2,"b":1}}',
    );
    const holed = [1, undefined, null];
    holed.length = 4;
    expect(stableJson(holed)).toBe('[1,null,null,null]');
  });

  it('writes a value whose keys are already in order exactly as it writes a shuffled copy', () => {
    // Bulk rows come out of their schema with sorted keys and are written without a sorted copy.
    const sortedDeep = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sortedDeep)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((k) => [k, sortedDeep((value as Record<string, unknown>)[k])]),
            )
          : value;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = stableJson(value);
        expect(stableJson(sortedDeep(value))).toBe(expected);
        expect(JSON.parse(expected)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300, seed: 20_261_128 },
    );
  });

  it('keeps an own __proto__ key, as JSON.parse makes it, in the sorted copy', () => {
    // Found by the property test above: assigning `__proto__` on a plain copy set its prototype instead.
    const value = JSON.parse('{"b":{"z":1,"__proto__":{"x":1}},"a":{"__proto__":0}}');
    expect(stableJson(value)).toBe('{"a":{"__proto__":0},"b":{"__proto__":{"x":1},"z":1}}');
    expect(deriveIdempotencyKey('n', value)).not.toBe(deriveIdempotencyKey('n', { a: {}, b: { z: 1 } }));
  });

  it('takes the sorted copy whenever JSON.stringify of the value itself would differ', () => {
    // Integer-like keys: JSON.stringify writes them first, in numeric order, in the value and in the copy.
    expect(stableJson({ 10: 'b', 2: 'a', x: 'c' })).toBe('{"2":"a","10":"b","x":"c"}');
    // A boxed string is an object with index keys to the copy, a string to JSON.stringify.
    expect(stableJson({ a: new String('hi') })).toBe('{"a":{"0":"h","1":"i"}}');
    expect(stableJson(new String('hi'))).toBe('{"0":"h","1":"i"}');
    // toJSON on an array, class instances, nested objects out of order under sorted ones.
    const list = Object.assign([{ b: 1, a: 2 }], { toJSON: () => ({ z: 1, y: 2 }) });
    expect(stableJson({ a: list })).toBe('{"a":{"y":2,"z":1}}');
    class Point {
      x = 1;
      y = { b: 1, a: 2 };
    }
    expect(stableJson({ a: new Point() })).toBe('{"a":{"x":1,"y":{"a":2,"b":1}}}');
    expect(stableJson({ a: 1, b: [{ a: 1, b: { d: 1, c: 2 } }] })).toBe(
      '{"a":1,"b":[{"a":1,"b":{"c":2,"d":1}}]}',
    );
    // Sorted keys do not let a function, a symbol or a cycle through.
    expect(() => stableJson({ a: 1, b: () => 1 })).toThrow(
      new TypeError('stable JSON: cannot represent a function'),
    );
    expect(() => stableJson({ a: [Symbol('s')] })).toThrow(
      new TypeError('stable JSON: cannot represent a symbol'),
    );
    const loop: Record<string, unknown> = { a: 1 };
    loop.b = [loop];
    expect(() => stableJson(loop)).toThrow(new TypeError('stable JSON: the payload has a cycle'));
  });

  it('chunk keys are deterministic per index', () => {
    expect(chunkKey('base', 0)).toBe('base-0');
    expect(chunkKey('base', 12)).toBe('base-12');
    expect(() => chunkKey('base', -1)).toThrow(RangeError);
  });

  it('refuses a symbol-valued field loudly, at any depth, instead of deriving a key without it', () => {
    for (const payload of [
      { templateId: 't', note: Symbol('note') },
      { attributes: { tag: Symbol.for('tag') } },
      { investors: [Symbol('row')] },
      Symbol('payload'),
    ]) {
      expect(() => deriveIdempotencyKey('spv-requests', payload)).toThrow(
        new TypeError('stable JSON: cannot represent a symbol'),
      );
    }
    expect(() => stableJson({ f: () => 1 })).toThrow(
      new TypeError('stable JSON: cannot represent a function'),
    );
  });

  it('ignores symbol keys, as the JSON body sent does: the same body gets the same key', () => {
    const payload = { templateId: 't', [Symbol('local')]: 'kept in memory only' };
    expect(JSON.stringify(payload)).toBe('{"templateId":"t"}');
    expect(deriveIdempotencyKey('spv-requests', payload)).toBe(
      deriveIdempotencyKey('spv-requests', { templateId: 't' }),
    );
  });

  it('refuses a payload with no JSON representation, and a namespace that is not a non-empty string', () => {
    expect(() => stableJson(undefined)).toThrow(
      new TypeError('stable JSON: the payload has no JSON representation'),
    );
    for (const namespace of [undefined, 7, {}, '']) {
      expect(() => deriveIdempotencyKey(namespace as string, {})).toThrow(
        new TypeError('deriveIdempotencyKey: namespace must be a non-empty string'),
      );
    }
  });

  it('keeps arrays in order and null, numbers and strings as JSON writes them', () => {
    expect(stableJson([3, 1, 2])).toBe('[3,1,2]');
    expect(stableJson({ b: null, a: [{ d: 'x', c: 0 }] })).toBe('{"a":[{"c":0,"d":"x"}],"b":null}');
    expect(stableJson('text')).toBe('"text"');
    expect(stableJson({ skipped: undefined, kept: 1 })).toBe('{"kept":1}');
  });

  it('refuses chunk indexes that are not whole numbers', () => {
    for (const index of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => chunkKey('base', index)).toThrow(
        new RangeError('chunkKey: index must be an integer >= 0'),
      );
  });
});
