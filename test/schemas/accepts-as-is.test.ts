import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS } from '../../src/resources/operations.js';
import { acceptsAsIs, defOf } from '../../src/schemas/accepts-as-is.js';
import { SpvRequest } from '../../src/schemas/spv-requests.js';

const wrong = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 6 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant(Number.POSITIVE_INFINITY),
);

// Values shaped by the schema itself: mostly what it states, now and then a wrong type, a missing field or
// an extra one, so both verdicts come up for every schema.
function valuesOf(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const mostly = (good: fc.Arbitrary<unknown>) =>
    fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: wrong, weight: 1 });
  if (depth > 6) return wrong;
  switch (def.type) {
    case 'string':
      return mostly(fc.string({ maxLength: 8 }));
    case 'number':
      return mostly(fc.oneof(fc.integer(), fc.double({ noNaN: true })));
    case 'boolean':
      return mostly(fc.boolean());
    case 'enum':
      return mostly(fc.constantFrom(...Object.values(def.entries ?? { a: 'a' })));
    case 'literal':
      return mostly(fc.constantFrom(...(def.values ?? [null])));
    case 'optional':
      return fc.oneof(fc.constant(undefined), valuesOf(def.innerType as z.ZodType, depth + 1));
    case 'nullable':
      return fc.oneof(fc.constant(null), valuesOf(def.innerType as z.ZodType, depth + 1));
    case 'array':
      return mostly(fc.array(valuesOf(def.element as z.ZodType, depth + 1), { maxLength: 3 }));
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => valuesOf(option, depth + 1)));
    case 'record':
      return mostly(
        fc.dictionary(fc.string({ maxLength: 4 }), valuesOf(def.valueType as z.ZodType, depth + 1)),
      );
    case 'object': {
      const shape = def.shape ?? {};
      const fields = Object.fromEntries(
        Object.entries(shape).map(([name, field]) => [name, valuesOf(field, depth + 1)]),
      );
      const required = Object.keys(shape);
      // Now and then one stated field left out (a required one must then be refused).
      const dropped =
        required.length === 0
          ? fc.constant(null)
          : fc.option(fc.constantFrom(...required), { freq: 10, nil: null });
      const extra = fc.dictionary(fc.constantFrom('extra', 'other', 'zeta'), fc.jsonValue(), { maxKeys: 2 });
      return mostly(
        fc
          .tuple(fc.record(fields, { requiredKeys: required }), dropped, extra)
          .map(([record, drop, more]) => {
            const out: Record<string, unknown> = { ...more, ...record };
            if (drop !== null) delete out[drop];
            return out;
          }),
      );
    }
    default:
      return fc.oneof(fc.jsonValue(), wrong);
  }
}

const schemas = Object.entries(OPERATIONS).map(([name, operation]) => [name, operation.response] as const);

describe('acceptsAsIs (the zod-free check of a response body)', () => {
  it.each(schemas)(
    '%s: accepts only what zod accepts unchanged, and every JSON body zod accepts',
    (_, schema) => {
      let accepted = 0;
      fc.assert(
        fc.property(valuesOf(schema as z.ZodType), (value) => {
          const fast = acceptsAsIs(schema as z.ZodType, value);
          const parsed = (schema as z.ZodType).safeParse(value);
          if (fast) {
            expect(parsed.success).toBe(true);
            expect(parsed.data).toEqual(value);
            accepted += 1;
          }
        }),
        { numRuns: 300 },
      );
      // A JSON body (what a response is) that zod accepts is accepted here too when the schema qualifies.
      fc.assert(
        fc.property(valuesOf(schema as z.ZodType), (value) => {
          const json: unknown = JSON.parse(JSON.stringify(value ?? null));
          if (acceptsAsIs(schema as z.ZodType, json)) return;
          const parsed = (schema as z.ZodType).safeParse(json);
          if (parsed.success && qualifies(schema as z.ZodType))
            expect.fail(`zod accepts ${JSON.stringify(json)}`);
        }),
        { numRuns: 300 },
      );
      if (qualifies(schema as z.ZodType)) expect(accepted).toBeGreaterThan(0);
    },
  );

  it('takes the SDK’s SPV request as it is: the body itself, nothing copied', () => {
    const body = {
      spvRequestSlug: 'spvr_1',
      status: 'approved',
      templateId: 'spv-standard',
      templateVersion: '1.0.0',
      tenantSlug: 'acme',
      clientId: 'cli_1',
      attributes: { dealName: 'Fund I', target: { currency: 'EUR', value: '100.00' } },
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-02T00:00:00Z',
      rejectionReason: null,
      approvedAt: '2026-01-02T00:00:00Z',
      materialisedRefs: { opportunitySlug: 'o', vehicleSlug: 'v', spSlug: 's', spcSlug: 'c', extra: 1 },
      feesAndCarry: {
        shareClasses: [
          { name: 'A', slug: 'a', managementFeePercent: '2', carryPercent: '20', setupFee: { value: '0' } },
        ],
      },
      somethingNew: { kept: true },
    };
    expect(qualifies(SpvRequest)).toBe(true);
    expect(acceptsAsIs(SpvRequest, body)).toBe(true);
    expect(acceptsAsIs(SpvRequest, { ...body, status: 7 })).toBe(false);
    expect(acceptsAsIs(SpvRequest, { ...body, feesAndCarry: { shareClasses: [{ name: 'A' }] } })).toBe(false);
    expect(acceptsAsIs(SpvRequest, Object.assign(Object.create({ inherited: 1 }), body))).toBe(false);
  });

  it('leaves to zod every schema with checks, formats, defaults, transforms or stripping objects', () => {
    for (const schema of [
      z.string().min(1),
      z.url(),
      z.int(),
      z.string().default('x'),
      z.unknown().transform((value) => value),
      z.object({ a: z.string() }),
      z.strictObject({ a: z.string() }),
      z.looseObject({ a: z.string().refine(() => true) }),
      z.record(z.enum(['a']), z.string()),
    ]) {
      expect(acceptsAsIs(schema as z.ZodType, 'x')).toBe(false);
      expect(acceptsAsIs(schema as z.ZodType, { a: 'x' })).toBe(false);
    }
  });
});

// Whether the schema is made only of the parts acceptsAsIs says it decides (written apart from it, from its
// documentation): for those, every JSON body zod accepts must be accepted without zod.
function qualifies(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if ((def.checks?.length ?? 0) > 0 || def.check !== undefined || def.format !== undefined) return false;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'unknown':
    case 'any':
    case 'literal':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {}).every((value) => typeof value === 'string');
    case 'optional':
    case 'nullable':
      return qualifies(def.innerType as z.ZodType);
    case 'array':
      return qualifies(def.element as z.ZodType);
    case 'union':
      return (def.options ?? []).every(qualifies);
    case 'record':
      return defOf(def.keyType as z.ZodType).type === 'string' && qualifies(def.valueType as z.ZodType);
    case 'object':
      return (
        def.catchall !== undefined &&
        ['unknown', 'any'].includes(defOf(def.catchall).type) &&
        Object.values(def.shape ?? {}).every(qualifies)
      );
    default:
      return false;
  }
}
