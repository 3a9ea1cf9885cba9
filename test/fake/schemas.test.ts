import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  CountryCode,
  CurrencyCode,
  InvestorInput,
  LumpSum,
  SpvRequest,
  type SpvRequestStatus,
} from '../../src/testing/wire/index.js';

describe("the fake's wire schemas (src/testing/wire)", () => {
  it('keeps unknown enum values and unknown fields of responses (forward compatibility)', () => {
    const parsed = SpvRequest.parse({
      spvRequestSlug: 'spvr_1',
      status: 'on-hold',
      templateId: 'spv-standard',
      templateVersion: '2025-06',
      tenantSlug: 't',
      clientId: 'c',
      attributes: {},
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      addedInV101: true,
    });
    expect(parsed.status).toBe('on-hold');
    expect(parsed).toHaveProperty('addedInV101', true);
    expectTypeOf<z.infer<typeof SpvRequestStatus>>().toExtend<string>();
    expectTypeOf<'approved'>().toExtend<z.infer<typeof SpvRequestStatus>>();
  });

  it('validates inputs strictly: real dates, ISO codes, decimal strings, no unknown keys', () => {
    const ok = {
      partnerInvestorId: 'inv-1',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1990-02-28',
      countryOfResidence: 'GB',
    };
    expect(InvestorInput.safeParse(ok).success).toBe(true);
    expect(InvestorInput.safeParse({ ...ok, dateOfBirth: '1990-02-30' }).success).toBe(false);
    expect(InvestorInput.safeParse({ ...ok, countryOfResidence: 'XX' }).success).toBe(false);
    expect(InvestorInput.safeParse({ ...ok, emial: 'typo' }).success).toBe(false);
    expect(CountryCode.safeParse('de').success).toBe(false);
    expect(CurrencyCode.safeParse('EUR').success).toBe(true);
    expect(CurrencyCode.safeParse('EUX').success).toBe(false);
    expect(LumpSum.safeParse({ currency: 'EUR', value: '1000.50' }).success).toBe(true);
    expect(LumpSum.safeParse({ currency: 'EUR', value: '0' }).success).toBe(false);
    expect(LumpSum.safeParse({ currency: 'EUR', value: 1000 }).success).toBe(false);
    expect(LumpSum.safeParse({ currency: 'EUR', value: '1e3' }).success).toBe(false);
  });
});
