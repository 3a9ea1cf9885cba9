import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputValidationError } from '../../src/core/errors.js';
import { investorRow, type ReliabilityEnv, startEnv } from '../reliability/fake-env.js';
import { boxed, hostileKey, hugeString, nonString, unicodeJunk, withOwnKey } from './hostile-values.js';

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

const FIELDS: [string, fc.Arbitrary<unknown>][] = [
  [
    'email',
    fc.oneof(nonString, hugeString, unicodeJunk, fc.constantFrom('', 'no-at-sign', 'a@', '@b.example')),
  ],
  ['firstName', fc.oneof(nonString, hugeString, fc.constantFrom('', '   '))],
  ['lastName', fc.oneof(nonString, hugeString, fc.constantFrom(''))],
  [
    'dateOfBirth',
    fc.oneof(nonString, unicodeJunk, fc.constantFrom('2025-02-30', '1985-13-01', '31/12/1985', '1985-1-1')),
  ],
  ['countryOfResidence', fc.oneof(nonString, unicodeJunk, fc.constantFrom('de', 'DEU', 'XX', ''))],
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

  it('unknown keys (`__proto__`, `constructor`…) fail the row by name; the good row beside it is sent alone', async () => {
    await fc.assert(
      fc.asyncProperty(hostileKey, boxed(fc.anything()), async (key, { value }) => {
        if (key in investorRow('x') || value === undefined) return;
        const before = env.fake.requests.length;
        const bad = withOwnKey(investorRow('inv-extra'), key, value);
        const { results } = await env.client.investors.create([bad as Loose, investorRow('inv-good')]);
        expect(results[0]).toMatchObject({ status: 'failed', error: { field: key } });
        expect(results[1]?.servicePersonId).toBeTruthy();
        expect(env.fake.requests.length).toBe(before + 1);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { numRuns: 30 },
    );
    expect(env.fake.admin.snapshot().persons.filter((p) => p.partnerInvestorId === 'inv-extra')).toEqual([]);
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
