import { describe, expect, it } from 'vitest';
import { investorRowCheck } from '../../src/schemas/investor-rows.js';

const firstIndexes = (ids: string[], window: number) => {
  const check = investorRowCheck(window);
  return ids
    .map((partnerInvestorId, position) => check({ partnerInvestorId }, position))
    .map((checked) =>
      'result' in checked ? /index (\d+)/.exec(checked.result.error?.message ?? '')?.[1] : undefined,
    );
};

describe('investorRowCheck duplicates', () => {
  it('fails every repeat of a partnerInvestorId with the index where it first appeared', () => {
    const ids = ['a', 'b', 'a', 'c', 'b', 'c', 'd', 'a', 'd'];
    expect(firstIndexes(ids, Number.POSITIVE_INFINITY)).toEqual([
      undefined,
      undefined,
      '0',
      undefined,
      '1',
      '3',
      undefined,
      '0',
      '6',
    ]);
    const check = investorRowCheck(Number.POSITIVE_INFINITY);
    check({ partnerInvestorId: 'a' }, 0);
    expect(check({ partnerInvestorId: 'a' }, 1)).toMatchObject({
      result: { error: { code: 'duplicate_in_request', field: 'partnerInvestorId' } },
    });
  });

  it("a stream's window forgets ids further back than the chunks in flight", () => {
    expect(firstIndexes(['a', 'b', 'a', 'c', 'd', 'a'], 2)).toEqual([
      undefined,
      undefined,
      '0',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('over a long stream, says what a window of the last rows would say, unkeyed rows included', () => {
    // The rule spelled out: a keyed row repeats its id's first occurrence while that is at most `window`
    // positions back; past that, the row is a first occurrence again.
    const window = 7;
    let seed = 7;
    const ids = Array.from({ length: 3_000 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % 13 === 0 ? undefined : `id-${seed % 10}`;
    });
    const first = new Map<string, number>();
    const expected = ids.map((id, position) => {
      if (id === undefined) return 'unkeyed';
      const at = first.get(id);
      if (at !== undefined && at >= position - window) return String(at);
      first.set(id, position);
      return undefined;
    });
    expect(expected.filter((x) => x !== undefined && x !== 'unkeyed').length).toBeGreaterThan(500);
    const check = investorRowCheck(window);
    const actual = ids.map((partnerInvestorId, position) => {
      const checked = check({ partnerInvestorId } as { partnerInvestorId: string }, position);
      if (!('result' in checked)) return undefined;
      if (checked.result.error?.code !== 'duplicate_in_request') return 'unkeyed';
      return /index (\d+)/.exec(checked.result.error.message)?.[1];
    });
    expect(actual).toEqual(expected);
  });
});
