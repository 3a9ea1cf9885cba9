import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptsAsIs } from '../../src/schemas/accepts-as-is.js';
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

// A chunk's answer takes the pipeline's zod-free path (acceptsAsIs) when InvestorCreateResponse accepts it as
// it is, and zod's otherwise: the verdicts, data and issues are zod's either way.
describe('InvestorCreateResponse without zod', () => {
  it('gives the verdicts and data of InvestorCreateResponse', () => {
    fc.assert(
      fc.property(body, (input) => {
        const zod = InvestorCreateResponse.safeParse(input);
        // The zod-free check never accepts what zod refuses, and what it accepts is zod's data as it is.
        if (acceptsAsIs(InvestorCreateResponse, input)) {
          expect(zod.success).toBe(true);
          expect(zod.data).toEqual(input);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
