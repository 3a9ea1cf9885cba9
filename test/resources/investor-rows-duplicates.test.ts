import { describe, expect, it } from 'vitest';
import { checkInvestorRows } from '../../src/schemas/investor-rows.js';

describe('checkInvestorRows duplicates', () => {
  it('fails every repeat of a partnerInvestorId with the index where it first appeared', () => {
    const ids = ['a', 'b', 'a', 'c', 'b', 'c', 'd', 'a', 'd'];
    const checked = checkInvestorRows(ids.map((partnerInvestorId) => ({ partnerInvestorId })));
    const firsts = checked.prefilled.map((result) => /index (\d+)/.exec(result?.error?.message ?? '')?.[1]);
    expect(firsts).toEqual([undefined, undefined, '0', undefined, '1', '3', undefined, '0', '6']);
    expect(checked.prefilled[2]?.error).toMatchObject({
      code: 'duplicate_in_request',
      field: 'partnerInvestorId',
    });
  });
});
