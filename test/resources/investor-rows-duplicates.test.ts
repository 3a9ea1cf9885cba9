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
});
