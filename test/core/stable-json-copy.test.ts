import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableJson } from '../../src/core/request/idempotency.js';

// Derived keys hash stable JSON, so the text must stay byte-identical whatever builds it. This reference is
// how stableJson wrote it before its copies became plain objects: null-prototype sorted copies, stringified.
function reference(value: unknown): string | undefined {
  const copy = (item: unknown, key: string): unknown => {
    const toJSON = Object(item) === item ? (item as { toJSON?: unknown }).toJSON : undefined;
    const resolved: unknown = typeof toJSON === 'function' ? toJSON.call(item, key) : item;
    if (resolved === null || typeof resolved !== 'object') return resolved;
    const out = (Array.isArray(resolved) ? [] : Object.create(null)) as Record<string, unknown>;
    for (const name of Array.isArray(resolved) ? resolved.keys() : Object.keys(resolved).sort())
      out[name] = copy((resolved as Record<string, unknown>)[name], String(name));
    return out;
  };
  return JSON.stringify(copy(value, ''));
}

// Keys that an object copy could get wrong: the prototype's accessor and names, integer-like keys (written
// first, in numeric order), a `toJSON` that is not a function (written as a field).
const awkwardKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'toJSON',
  'hasOwnProperty',
  '0',
  '10',
  '2',
  '-1',
  '01',
);
const key = fc.oneof(fc.string(), awkwardKey);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('array'), tie('object')),
  leaf: fc.oneof(fc.string(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null)),
  array: fc.array(tie('node'), { maxLength: 4 }),
  // Built with defineProperty, as JSON.parse does, so `__proto__` is an own key and not the prototype.
  object: fc
    .uniqueArray(fc.tuple(key, tie('node')), { selector: ([name]) => name, maxLength: 6 })
    .map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [name, field] of entries)
        Object.defineProperty(object, name, {
          value: field,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return object;
    }),
}));

describe('stable JSON, written from plain sorted copies', () => {
  it('writes what the null-prototype copies wrote, byte for byte, awkward keys included', () => {
    fc.assert(
      fc.property(fc.oneof(value.node, fc.jsonValue()), (input) => {
        expect(stableJson(input)).toBe(reference(input));
      }),
      { numRuns: 500, seed: 20_261_129 },
    );
  });

  it('keeps a top-level and a nested own __proto__ key, and leaves Object.prototype alone', () => {
    const row = JSON.parse(
      '{"partnerInvestorId":"p-1","__proto__":{"polluted":true},"extra":{"__proto__":[1]}}',
    );
    expect(stableJson(row)).toBe(
      '{"__proto__":{"polluted":true},"extra":{"__proto__":[1]},"partnerInvestorId":"p-1"}',
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
