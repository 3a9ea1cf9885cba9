import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FastInvestorCreateResponse,
  isInvestorCreateResponse,
} from '../../src/resources/fast-investor-results.js';
import { InvestorCreateResponse } from '../../src/schemas/investors.js';

// Values near what the schema checks: right and wrong types for every stated field, and extra fields.
const value = fc.constantFrom<unknown>(undefined, null, 'x', '', 7, true, [], {});
const rowError = fc.oneof(
  value,
  fc.record(
    {
      code: fc.oneof(fc.constant('invalid_field'), value),
      message: fc.oneof(fc.constant('bad'), value),
      retryable: fc.oneof(fc.boolean(), value),
      field: value,
    },
    { requiredKeys: [] },
  ),
);
const row = fc.oneof(
  value,
  fc.record(
    {
      partnerInvestorId: fc.oneof(fc.constant('inv-1'), value),
      status: fc.oneof(fc.constant('created'), value),
      servicePersonId: fc.oneof(fc.constant('per_1'), value),
      error: rowError,
      extra: value,
    },
    { requiredKeys: [] },
  ),
);
const body = fc.oneof(
  value,
  fc.record(
    { results: fc.oneof(fc.array(row, { maxLength: 4 }), value), other: value },
    { requiredKeys: [] },
  ),
);

describe('FastInvestorCreateResponse', () => {
  it('gives the verdicts, data and issues of InvestorCreateResponse', () => {
    fc.assert(
      fc.property(body, (input) => {
        const fast = FastInvestorCreateResponse.safeParse(input);
        const zod = InvestorCreateResponse.safeParse(input);
        expect(fast.success).toBe(zod.success);
        if (zod.success) expect(fast.data).toEqual(zod.data);
        else expect(fast.error?.issues).toEqual(zod.error.issues);
        // The zod-free check never accepts what zod refuses.
        if (isInvestorCreateResponse(input)) expect(zod.success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
