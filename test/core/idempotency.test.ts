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
