import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastInvestorRow } from '../../src/resources/fast-investor-row.js';
import { InvestorInput } from '../../src/schemas/investors.js';

const valid = {
  partnerInvestorId: 'inv-1',
  email: 'ada.lovelace@example.com',
  firstName: '  Ada ',
  lastName: 'Lovelace',
  dateOfBirth: '2000-02-29',
  countryOfResidence: 'DE',
};

// Field values near every boundary the schema checks, so random rows hit both sides of each.
const text = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '  x  ',
    'a'.repeat(100),
    ` ${'a'.repeat(100)} `,
    'a'.repeat(101),
    'b'.repeat(129),
  ),
  fc.string({ maxLength: 12 }),
);
const field = fc.oneof(
  text,
  fc.constantFrom('a@b.co', 'x..y@example.com', '.a@example.com', 'a@example', `${'a'.repeat(250)}@ex.de`),
  fc.constantFrom('1985-02-28', '1900-02-29', '2000-02-29', '1990-13-01', '1990-1-01', '1990-04-31'),
  fc.constantFrom('DE', 'US', 'EU', 'de', 'XX', 'DEU'),
  fc.constantFrom(undefined, null, 7, true, ['DE']),
);
// Mostly valid fields with one or two bad ones, so both valid and refused rows come up often.
const keep = <T>(good: T) =>
  fc.oneof({ arbitrary: fc.constant(good), weight: 4 }, { arbitrary: field, weight: 1 });
const row = fc.record(
  {
    partnerInvestorId: keep(valid.partnerInvestorId),
    email: keep(valid.email),
    firstName: keep(valid.firstName),
    lastName: keep(valid.lastName),
    dateOfBirth: keep(valid.dateOfBirth),
    countryOfResidence: keep(valid.countryOfResidence),
    extra: field,
  },
  {
    requiredKeys: [
      'partnerInvestorId',
      'email',
      'firstName',
      'lastName',
      'dateOfBirth',
      'countryOfResidence',
    ],
  },
);

describe('fastInvestorRow', () => {
  it('checks with the very patterns the schema uses', () => {
    const shape = InvestorInput.shape;
    expect(shape.email._zod.def.pattern).toBe(z.regexes.email);
    expect(shape.dateOfBirth._zod.def.pattern).toBe(z.regexes.date);
  });

  it('gives the row zod gives for a valid row, names trimmed, fields in schema order', () => {
    const fast = fastInvestorRow(valid);
    expect(fast).toEqual(InvestorInput.parse(valid));
    expect(Object.keys(fast ?? {})).toEqual(Object.keys(InvestorInput.shape));
  });

  it('leaves to zod anything but a plain (or null-prototype) object of exactly the six fields', () => {
    expect(fastInvestorRow({ ...valid, extra: undefined })).toBeUndefined();
    expect(fastInvestorRow(Object.assign(Object.create({ inherited: 1 }), valid))).toBeUndefined();
    expect(fastInvestorRow(Object.assign(Object.create(null), valid))).toEqual(InvestorInput.parse(valid));
  });

  it('never accepts a row zod refuses, and matches zod on every row it accepts', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(row, (candidate) => {
        const fast = fastInvestorRow(candidate);
        const parsed = InvestorInput.safeParse(candidate);
        if (fast !== undefined) expect(parsed).toEqual({ success: true, data: fast });
        if (parsed.success && Object.keys(candidate).length === 6) expect(fast).toEqual(parsed.data);
        if (fast !== undefined) accepted += 1;
        if (!parsed.success) refused += 1;
      }),
      { numRuns: 3000 },
    );
    // Both sides were exercised: many valid rows took the fast path, many bad ones were left to zod.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });
});
