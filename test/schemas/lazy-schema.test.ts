import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvestorCreateResponse } from '../../src/schemas/investors.js';
import { lazySchema } from '../../src/schemas/lazy-schema.js';
import { SpvRequest } from '../../src/schemas/spv-requests.js';

describe('lazySchema', () => {
  it('builds the schema once, on first use, and unwrap() gives that very schema', () => {
    let builds = 0;
    const Lazy = lazySchema(() => {
      builds += 1;
      return z.looseObject({ id: z.string() });
    });
    expect(builds).toBe(0);
    expect(Lazy.parse({ id: 'a', extra: 1 })).toEqual({ id: 'a', extra: 1 });
    expect(Lazy.safeParse({ id: 1 }).success).toBe(false);
    expect(Lazy.unwrap()).toBe(Lazy.unwrap());
    expect(Object.keys(Lazy.unwrap().shape)).toEqual(['id']);
    expect(builds).toBe(1);
  });

  it('parses, refuses and describes as the schema it wraps', () => {
    const body = { results: [{ partnerInvestorId: 'a', status: 'created', error: { code: 1 } }] };
    const lazy = InvestorCreateResponse.safeParse(body);
    const built = InvestorCreateResponse.unwrap().safeParse(body);
    expect(lazy.error?.issues).toEqual(built.error?.issues);
    expect(z.toJSONSchema(SpvRequest)).toEqual(z.toJSONSchema(SpvRequest.unwrap()));
  });
});
