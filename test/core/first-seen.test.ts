import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FirstSeen } from '../../src/core/bulk/first-seen.js';

// What FirstSeen stands for: a Map from key to the position it was first added at.
function reference(keys: readonly string[]): number[] {
  const first = new Map<string, number>();
  return keys.map((key, position) => {
    const earlier = first.get(key);
    if (earlier !== undefined) return earlier;
    first.set(key, position);
    return -1;
  });
}

function firstSeen(keys: readonly string[]): number[] {
  const table = new FirstSeen(keys.length, keys);
  return keys.map((key, position) => table.add(key, position));
}

describe('FirstSeen (where each id of a bulk call first appeared)', () => {
  it('answers like a Map of first positions, duplicates and hash collisions included', () => {
    // Short keys from a small alphabet: many duplicates, and in tables this small many keys share a slot.
    const key = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\u{1F600}', '-'), maxLength: 4 });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 200 }), (keys) => {
        expect(firstSeen(keys)).toEqual(reference(keys));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps 100,000 distinct ids apart and finds a repeat of each', () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => `inv-${i}`);
    const keys = [...ids, ...ids.slice(0, 1_000)];
    const answers = firstSeen(keys);
    expect(answers.slice(0, 100_000).every((answer) => answer === -1)).toBe(true);
    expect(answers.slice(100_000)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
  });
});
