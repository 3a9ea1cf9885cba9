import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fastInvestorRow,
  isCalendarDate,
  isCountryCode,
  isEmail,
} from '../../src/resources/fast-investor-row.js';
import { EMAIL_PATTERN, InvestorInput } from '../../src/schemas/investors.js';

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
  fc.constantFrom('a@b.co', 'x..y@example.com', 'a b@example.com', 'a@example', '@ex.de', 'müller@bücher.de'),
  fc.constantFrom('1985-02-28', '1900-02-29', '2000-02-29', '1990-13-01', '1990-1-01', '1990-04-31'),
  fc.constantFrom('DE', 'US', 'EU', 'de', 'XK', 'DEU', 'D'),
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
  it('gives back the row itself, as sent: names untrimmed, unknown fields kept (zod gives an equal copy)', () => {
    const withExtra = { ...valid, phone: '+49 30 1234' };
    expect(fastInvestorRow(withExtra)).toBe(withExtra);
    expect(fastInvestorRow(withExtra)).toEqual(InvestorInput.parse(withExtra));
  });

  it('requires only partnerInvestorId; stated formats are checked on the fields present', () => {
    expect(fastInvestorRow({ partnerInvestorId: 'inv-9' })).toEqual({ partnerInvestorId: 'inv-9' });
    expect(InvestorInput.safeParse({ partnerInvestorId: 'inv-9', email: null }).success).toBe(true);
    // A Unicode address, a lower-case or user-assigned country code, a long name: no invented bounds.
    for (const row of [
      { ...valid, email: 'müller@bücher.de' },
      { ...valid, countryOfResidence: 'xk' },
      { ...valid, lastName: 'L'.repeat(500) },
    ]) {
      expect(fastInvestorRow(row)).toBe(row);
      expect(InvestorInput.safeParse(row).success).toBe(true);
    }
    for (const row of [
      { ...valid, email: 'not an email' },
      { ...valid, dateOfBirth: '1990-02-30' },
      { ...valid, countryOfResidence: 'DEU' },
      { ...valid, partnerInvestorId: '' },
    ]) {
      expect(fastInvestorRow(row)).toBeUndefined();
      expect(InvestorInput.safeParse(row).success).toBe(false);
    }
  });

  it('leaves to zod anything but a plain (or null-prototype) object', () => {
    expect(fastInvestorRow(Object.assign(Object.create({ inherited: 1 }), valid))).toBeUndefined();
    const bare = Object.assign(Object.create(null), valid);
    expect(fastInvestorRow(bare)).toBe(bare);
  });

  it('never accepts a row zod refuses, and matches zod on every row it accepts', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(row, (candidate) => {
        const fast = fastInvestorRow(candidate);
        const parsed = InvestorInput.safeParse(candidate);
        if (fast !== undefined) expect(parsed).toEqual({ success: true, data: fast });
        if (parsed.success) expect(fast).toEqual(parsed.data);
        if (fast !== undefined) accepted += 1;
        if (!parsed.success) refused += 1;
      }),
      { numRuns: 3000 },
    );
    // Both sides were exercised: many valid rows took the fast path, many bad ones were left to zod.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('checks e-mail addresses exactly as EMAIL_PATTERN does, white space of every kind included', () => {
    // Every code unit JS `\s` matches, a few it does not (zero-width space, NEL), '@' and plain letters.
    const units = [...' \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'];
    const alphabet = fc.constantFrom(
      ...units,
      '\u200b',
      '\u0085',
      '\u1fff',
      '@',
      'a',
      'Z',
      '.',
      'ü',
      '\ud83d',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 8 }), (parts) => {
        const value = parts.join('');
        expect(isEmail(value)).toBe(EMAIL_PATTERN.test(value));
      }),
      { numRuns: 5000 },
    );
    for (const value of ['a@b', '@b', 'a@', 'a@@b', 'a@b@c', 'a b@c', 'a@b\u3000', '', '@']) {
      expect(isEmail(value)).toBe(EMAIL_PATTERN.test(value));
    }
  });

  it('checks dates exactly as z.iso.date() does: every month and day of leap and common years', () => {
    const years = [
      '0000',
      '0004',
      '0100',
      '0400',
      '1900',
      '1985',
      '1996',
      '2000',
      '2023',
      '2024',
      '2100',
      '2400',
      '9999',
    ];
    const twoDigits = Array.from({ length: 34 }, (_, n) => String(n).padStart(2, '0'));
    let real = 0;
    for (const year of years) {
      for (const month of twoDigits.slice(0, 14)) {
        for (const day of twoDigits) {
          const value = `${year}-${month}-${day}`;
          expect(isCalendarDate(value), value).toBe(z.regexes.date.test(value));
          if (isCalendarDate(value)) real += 1;
        }
      }
    }
    expect(real).toBe(years.length * 365 + 7); // 0000, 0004, 0400, 1996, 2000, 2024 and 2400 are leap years
    for (const value of [
      '1985-2-28',
      '1985-02-28 ',
      '85-02-28',
      '1985/02/28',
      '１９８５-02-28',
      '1985-0a-28',
      '',
    ]) {
      expect(isCalendarDate(value), value).toBe(z.regexes.date.test(value));
    }
  });

  it('checks country codes exactly as /^[A-Za-z]{2}$/ does', () => {
    for (let first = 0; first < 0x180; first += 1) {
      for (const second of ['a', 'Z', '@', '[', '`', '{', 'À', '1']) {
        const value = `${String.fromCharCode(first)}${second}`;
        expect(isCountryCode(value), value).toBe(/^[A-Za-z]{2}$/.test(value));
      }
    }
    for (const value of ['', 'D', 'DEU', 'de'])
      expect(isCountryCode(value)).toBe(/^[A-Za-z]{2}$/.test(value));
  });
});
