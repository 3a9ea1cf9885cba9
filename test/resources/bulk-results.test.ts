import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resultRows, splitResults } from '../../src/resources/bulk-options.js';

// What `resultRows` promises, written plainly: the object elements, each through `map`.
const reference = <Row, Out>(body: { results: Row[] } | null | undefined, map?: (row: Row) => Out) => {
  const rows: unknown = body?.results;
  if (!Array.isArray(rows)) return [];
  return rows
    .filter((row) => typeof row === 'object' && row !== null)
    .map((row) => (map === undefined ? row : map(row as Row)));
};

describe('resultRows', () => {
  it('keeps the object elements of results, each through map, for any body', () => {
    const element = fc.oneof(
      fc.record({ id: fc.nat(9), changed: fc.boolean() }),
      fc.constant(null),
      fc.nat(),
      fc.string(),
      fc.constant([]),
    );
    // `map` replaces the rows marked `changed` and returns every other row as it is.
    const map = (row: { id?: number; changed?: boolean }) => (row.changed ? { ...row, mapped: true } : row);
    fc.assert(
      fc.property(fc.array(element, { maxLength: 12 }), (results) => {
        const body = { results } as { results: { id?: number; changed?: boolean }[] };
        expect(resultRows(body, map)).toEqual(reference(body, map));
        expect(resultRows(body)).toEqual(reference(body));
      }),
      { numRuns: 1000 },
    );
  });

  it('answers an empty list for a body without a results array', () => {
    for (const body of [undefined, null, {}, { results: 'x' }, { results: { 0: {} } }]) {
      expect(resultRows(body as never)).toEqual([]);
    }
  });
});

describe('splitResults', () => {
  type Row = { id: number; error?: { retryable: boolean } | null };
  const isOk = (row: Row): row is Row & { error?: null } => row.error == null;

  it('splits any results as a plain filter would, in input order', () => {
    const result = fc.record({
      id: fc.nat(99),
      error: fc.oneof(fc.constant(undefined), fc.constant(null), fc.record({ retryable: fc.boolean() })),
    });
    fc.assert(
      fc.property(fc.array(result, { maxLength: 12 }), (rows) => {
        const results = rows as Row[];
        const inputs = results.map((row) => `input-${row.id}`);
        expect(splitResults(results, inputs, isOk)).toEqual({
          succeeded: results.filter(isOk),
          failed: results.filter((row) => !isOk(row)),
          retryable: inputs.filter((_, i) => results[i]?.error?.retryable === true),
        });
      }),
      { numRuns: 1000 },
    );
  });
});
