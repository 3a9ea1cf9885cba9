import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputValidationError } from '../../src/core/errors/errors.js';
import { investorRow, type ReliabilityEnv, startEnv } from '../reliability/fake-env.js';
import { boxed, hostileKey, nonString, unicodeJunk, withOwnKey } from './hostile-values.js';

/**
 * `investors.create` answers bad rows the way the API does (partial success: a failed result with a row
 * error naming the field), but refuses them before sending: a call whose rows are all bad sends nothing.
 * A call that cannot be keyed at all (not an array, a row that is not an object or has no
 * `partnerInvestorId`) throws `InputValidationError` naming it.
 */
let env: ReliabilityEnv;
beforeAll(async () => {
  env = await startEnv();
  await env.client.oauth.info();
});
afterAll(() => env.close());

const sent = () => env.fake.requests.length + env.fake.tokenRequests.length;
// biome-ignore lint/suspicious/noExplicitAny: hostile callers ignore the types.
type Loose = any;

// Optional fields may be absent or null; what is refused is another type, or a string breaking the format
// the spec states (no length bound is stated, so huge strings are the server's to judge).
const wrongType = nonString.filter((value) => value !== null && value !== undefined);
const FIELDS: [string, fc.Arbitrary<unknown>][] = [
  [
    'email',
    fc.oneof(
      wrongType,
      unicodeJunk.filter((v) => !v.includes('@')),
      fc.constantFrom('', 'no-at-sign', 'a@', '@b.example', 'a b@c.example'),
    ),
  ],
  ['firstName', wrongType],
  ['lastName', wrongType],
  [
    'dateOfBirth',
    fc.oneof(wrongType, unicodeJunk, fc.constantFrom('2025-02-30', '1985-13-01', '31/12/1985', '1985-1-1')),
  ],
  ['countryOfResidence', fc.oneof(wrongType, unicodeJunk, fc.constantFrom('DEU', 'D', '1A', ''))],
];

describe('hostile investor rows', () => {
  it.each(FIELDS)('a bad %s fails that row by name, and nothing is sent', async (field, arbitrary) => {
    await fc.assert(
      fc.asyncProperty(boxed(arbitrary), async ({ value }) => {
        const before = sent();
        const { results, failed } = await env.client.investors.create([
          { ...investorRow('inv-bad'), [field]: value } as Loose,
        ]);
        expect(results).toHaveLength(1);
        expect(failed[0]?.partnerInvestorId).toBe('inv-bad');
        expect(failed[0]?.error?.field).toBe(field);
        expect(failed[0]?.error?.retryable).toBe(false);
        expect(sent()).toBe(before);
      }),
      { numRuns: 30 },
    );
  });

  it('unknown keys (`__proto__`, `constructor`…) travel as data: the row is sent, no prototype is touched', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(hostileKey, boxed(fc.jsonValue()), async (key, { value }) => {
        if (key in investorRow('x') || value === undefined) return;
        n += 1;
        const before = env.fake.requests.length;
        const extra = withOwnKey(investorRow(`inv-extra-${n}`), key, value);
        const { results } = await env.client.investors.create([extra as Loose, investorRow(`inv-good-${n}`)]);
        expect(results.map((r) => r.error ?? 'ok')).toEqual(['ok', 'ok']);
        expect(env.fake.requests.length).toBe(before + 1);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
        expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
      }),
      { numRuns: 30 },
    );
  });

  it('rows that cannot be keyed throw InputValidationError naming them, nothing sent', async () => {
    const cases: [unknown, string][] = [
      ['not an array', 'investors'],
      [{ 0: investorRow('a') }, 'investors'],
      [[null], 'investors.0'],
      [[investorRow('a'), 42], 'investors.1'],
      [[{ ...investorRow('a'), partnerInvestorId: 7 }], 'investors.0.partnerInvestorId'],
      [[{ ...investorRow('a'), partnerInvestorId: '' }], 'investors.0.partnerInvestorId'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), async ([rows, issue]) => {
        const before = sent();
        const error = await env.client.investors.create(rows as Loose).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(InputValidationError);
        expect((error as InputValidationError).issues.map((i) => i.path)).toContain(issue);
        expect(sent()).toBe(before);
      }),
      { numRuns: 20 },
    );
  });
});
