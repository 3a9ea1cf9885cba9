import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvestorCreateResponse } from '../../src/schemas/investors.js';
import { lazySchema } from '../../src/schemas/lazy-schema.js';
import { LumpSum } from '../../src/schemas/subscriptions.js';

describe('lazySchema', () => {
  it('builds the schema once, on first use, and then behaves as it', () => {
    let builds = 0;
    const Lazy = lazySchema(() => {
      builds += 1;
      return z.looseObject({ id: z.string() });
    });
    const List = z.array(Lazy);
    expect(builds).toBe(0);
    expect(Lazy.parse({ id: 'a', extra: 1 })).toEqual({ id: 'a', extra: 1 });
    expect(Lazy.safeParse({ id: 1 }).success).toBe(false);
    expect(List.safeParse([{ id: 1 }]).error?.issues[0]?.path).toEqual([0, 'id']);
    expect(Object.keys(Lazy.shape)).toEqual(['id']);
    expect(Lazy.extend({ n: z.number() }).safeParse({ id: 'a', n: 1 }).success).toBe(true);
    expect(Lazy).toBeInstanceOf(z.ZodObject);
    expect(builds).toBe(1);
  });

  it('parses, refuses and describes as the schema it stands for', () => {
    const body = { results: [{ partnerInvestorId: 'a', status: 'created', error: { code: 1 } }] };
    const expected = z.looseObject({
      results: z.array(
        z.looseObject({
          partnerInvestorId: z.string(),
          status: z.string(),
          servicePersonId: z.string().nullish(),
          error: z
            .looseObject({
              code: z.string(),
              message: z.string(),
              retryable: z.boolean(),
              field: z.string().nullish(),
            })
            .nullish(),
        }),
      ),
    });
    expect(InvestorCreateResponse.safeParse(body).error?.issues).toEqual(
      expected.safeParse(body).error?.issues,
    );
    // `.meta()` of the primitives it holds still shows.
    expect(z.toJSONSchema(LumpSum)).toMatchObject({ properties: { currency: { examples: ['EUR'] } } });
  });
});
