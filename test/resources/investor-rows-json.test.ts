import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableJson } from '../../src/core/request/idempotency.js';
import { investorRowsJson } from '../../src/resources/investor-rows-json.js';
import { InvestorInput } from '../../src/schemas/investors.js';

// Any string at all, lone surrogates, quotes and control characters included.
const text = fc.string({ unit: 'binary', maxLength: 20 });
const row = fc.record({
  partnerInvestorId: text,
  email: text,
  firstName: text,
  lastName: text,
  dateOfBirth: text,
  countryOfResidence: text,
});

describe('investorRowsJson', () => {
  it('writes exactly what stableJson writes for rows of the six string fields', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (rows) => {
        expect(investorRowsJson(rows)).toBe(stableJson(rows));
      }),
      { numRuns: 2000 },
    );
  });

  it('covers every field of InvestorInput (a new field must be added to it)', () => {
    const parsed = InvestorInput.parse({
      partnerInvestorId: 'inv-1',
      email: 'a@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1985-02-28',
      countryOfResidence: 'DE',
    });
    expect(JSON.parse(investorRowsJson([parsed]))).toEqual([parsed]);
    expect(Object.keys(JSON.parse(investorRowsJson([parsed]))[0])).toEqual(
      Object.keys(InvestorInput.shape).sort(),
    );
  });
});
