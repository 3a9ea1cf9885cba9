import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableJson } from '../../src/core/request/idempotency.js';
import { investorsBodyWriter } from '../../src/resources/investors-body-json.js';
import { InvestorInput } from '../../src/schemas/investors.js';

// Any string at all, lone surrogates, quotes and control characters included.
const text = fc.string({ unit: 'binary', maxLength: 20 });
// One chunk's body through a writer of its own.
const investorsBodyJson = (rows: readonly InvestorInput[]) => investorsBodyWriter().write(rows);

// The usual row: the six stated fields, all strings.
const FULL_ROW = {
  partnerInvestorId: 'inv-1',
  email: 'a@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1985-02-28',
  countryOfResidence: 'DE',
};

const row = fc.record({
  partnerInvestorId: text,
  email: text,
  firstName: text,
  lastName: text,
  dateOfBirth: text,
  countryOfResidence: text,
});

describe('investorsBodyJson', () => {
  it('writes exactly what stableJson writes for a body of rows of the six string fields', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (rows) => {
        expect(investorsBodyJson(rows)).toBe(stableJson({ investors: rows }));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes what stableJson writes when rows lack fields, carry others or hold non-strings', () => {
    const odd = fc.record(
      {
        partnerInvestorId: text,
        email: fc.oneof(text, fc.constant(null)),
        firstName: text,
        lastName: fc.oneof(text, fc.integer()),
        dateOfBirth: text,
        countryOfResidence: text,
        note: fc.oneof(text, fc.dictionary(text, text, { maxKeys: 3 })),
      },
      { requiredKeys: ['partnerInvestorId'] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(row, odd), { maxLength: 8 }), (rows) => {
        const body = investorsBodyJson(rows as InvestorInput[]);
        expect(body).toBe(stableJson({ investors: rows }));
      }),
      { numRuns: 2000 },
    );
  });

  it('one writer, reused for chunk after chunk of any size and shape, writes each as stableJson does', () => {
    const odd = fc.record(
      { partnerInvestorId: text, email: fc.oneof(text, fc.constant(null)), note: text },
      { requiredKeys: ['partnerInvestorId'] },
    );
    const chunk = fc.oneof(
      { weight: 3, arbitrary: fc.array(row, { maxLength: 12 }) },
      { weight: 1, arbitrary: fc.array(fc.oneof(row, odd), { maxLength: 12 }) },
    );
    fc.assert(
      fc.property(fc.array(chunk, { minLength: 1, maxLength: 6 }), (chunks) => {
        const writer = investorsBodyWriter();
        for (const rows of chunks) {
          expect(writer.write(rows as InvestorInput[])).toBe(stableJson({ investors: rows }));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('writes what stableJson writes for null-prototype rows and under a polluted Object.prototype', () => {
    const full = FULL_ROW;
    const bare = Object.assign(Object.create(null) as InvestorInput, full);
    expect(investorsBodyJson([bare])).toBe(stableJson({ investors: [full] }));
    // Five own fields and an inherited sixth: for…in would count six; the row must be written as it is.
    const { email: _dropped, ...five } = full;
    const prototype = Object.prototype as { email?: string };
    prototype.email = 'inherited@example.com';
    try {
      expect(investorsBodyJson([five])).toBe(stableJson({ investors: [five] }));
      expect(Object.hasOwn(JSON.parse(investorsBodyJson([five])).investors[0], 'email')).toBe(false);
    } finally {
      delete prototype.email;
    }
  });

  it('covers every field of InvestorInput (a new field must be added to it)', () => {
    const parsed = InvestorInput.parse(FULL_ROW);
    expect(JSON.parse(investorsBodyJson([parsed]))).toEqual({ investors: [parsed] });
    expect(Object.keys(JSON.parse(investorsBodyJson([parsed])).investors[0])).toEqual(
      Object.keys(InvestorInput.shape).sort(),
    );
  });
});
