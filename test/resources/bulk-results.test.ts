import { describe, expect, it } from 'vitest';
import { resultRows, splitResults } from '../../src/resources/bulk-options.js';

describe('resultRows', () => {
  it('keeps the object elements of results, in order, each through map', () => {
    const body = { results: [{ id: 1 }, null, 7, 'x', { id: 2 }] } as { results: { id: number }[] };
    expect(resultRows(body)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(resultRows(body, (row) => row.id * 10)).toEqual([10, 20]);
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

  it('splits results into succeeded and failed, in input order', () => {
    const results: Row[] = [
      { id: 0 },
      { id: 1, error: { retryable: true } },
      { id: 2, error: null },
      { id: 3, error: { retryable: false } },
      { id: 4, error: { retryable: true } },
    ];
    expect(splitResults(results, isOk)).toEqual({
      succeeded: [results[0], results[2]],
      failed: [results[1], results[3], results[4]],
    });
  });
});
