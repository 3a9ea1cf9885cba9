import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerEquity } from '../../src/client.js';
import { InputValidationError } from '../../src/core/errors/errors.js';
import { pdf, type ReliabilityEnv, startEnv } from '../reliability/fake-env.js';
import {
  boxed,
  hostileKey,
  hugeString,
  nonObject,
  nonString,
  replaceAt,
  unicodeJunk,
  withOwnKey,
} from './hostile-values.js';

/**
 * Hostile input to every method that takes input: whatever fast-check generates for one field (wrong types,
 * numbers for money, huge strings, unicode, prototype keys), the method rejects with `InputValidationError`
 * whose issues and message name that field — and nothing reached the fake (no API call, no token call).
 * Never a TypeError or any other untyped exception.
 */
let env: ReliabilityEnv;
beforeAll(async () => {
  env = await startEnv();
  await env.client.oauth.info(); // a token is cached: a refused call must not even fetch one
});
afterAll(() => env.close());

interface Field {
  /** Where in the argument list: [argument index, ...keys]. */
  at: (string | number)[];
  /** The issue path the error must name. */
  issue: string;
  kind: 'string' | 'object' | 'int';
  required: boolean;
  /** Any string of this shape is refused (codes, decimals, dates…), so unicode junk must be too. */
  formatted?: boolean;
  /** A length bound the spec states: huge strings are refused. (None is stated for the SDK's inputs.) */
  bounded?: boolean;
  /** For `int` fields: the largest value accepted. */
  max?: number;
}

interface Method {
  name: string;
  args: () => unknown[];
  call: (client: PartnerEquity, args: unknown[]) => PromiseLike<unknown>;
  fields: Field[];
  /** Input objects that must refuse unknown keys: where they are, and the issue path naming them. */
  objects?: { at: (string | number)[]; path: string }[];
}

const s = (at: (string | number)[], issue: string, extra: Partial<Field> = {}): Field => ({
  at,
  issue,
  kind: 'string',
  required: true,
  ...extra,
});
const subscription = {
  servicePersonId: 'per_1',
  shareClassSlug: 'class-a',
  lumpSum: { currency: 'EUR', value: '25000.00' },
};
const receipt = () => ({ file: pdf(), amount: '25000.00', currency: 'EUR', wireReference: 'WIRE-1' });
// biome-ignore lint/suspicious/noExplicitAny: hostile callers ignore the types; so does this table.
type Loose = any;

const METHODS: Method[] = [
  {
    name: 'spvRequests.create',
    args: () => [{ templateId: 'spv-standard', attributes: { name: 'Fund I' } }, { idempotencyKey: 'key-1' }],
    call: (c, [body, options]) => c.spvRequests.create(body as Loose, options as Loose),
    // Only `templateId` is stated; every other body field is passed through for the server to judge.
    fields: [
      s([0, 'templateId'], 'templateId'),
      s([1, 'idempotencyKey'], 'idempotencyKey', { required: false, formatted: true }),
    ],
  },
  {
    name: 'spvRequests.list',
    args: () => [{ status: 'approved', perPage: 10, page: 1 }],
    call: (c, [params]) => c.spvRequests.list(params as Loose),
    fields: [
      s([0, 'status'], 'status', { required: false, formatted: true }),
      { at: [0, 'perPage'], issue: 'perPage', kind: 'int', required: false, max: 100 },
      { at: [0, 'page'], issue: 'page', kind: 'int', required: false },
    ],
    objects: [{ at: [0], path: '' }],
  },
  {
    name: 'spvRequests.get',
    args: () => ['spvreq_1'],
    call: (c, [slug]) => c.spvRequests.get(slug as Loose),
    fields: [s([0], 'slug')],
  },
  {
    name: 'spvRequests.cancel',
    args: () => ['spvreq_1'],
    call: (c, [slug]) => c.spvRequests.cancel(slug as Loose),
    fields: [s([0], 'slug')],
  },
  {
    name: 'subscriptions.create',
    args: () => ['spv_1', [subscription]],
    call: (c, [spv, rows]) => c.subscriptions.create(spv as Loose, rows as Loose),
    fields: [
      s([0], 'spvSlug'),
      s([1, 0, 'servicePersonId'], 'subscriptions.0.servicePersonId'),
      s([1, 0, 'shareClassSlug'], 'subscriptions.0.shareClassSlug'),
      s([1, 0, 'partnerSubscriptionId'], 'subscriptions.0.partnerSubscriptionId', { required: false }),
      s([1, 0, 'lumpSum', 'currency'], 'subscriptions.0.lumpSum.currency', { formatted: true }),
      s([1, 0, 'lumpSum', 'value'], 'subscriptions.0.lumpSum.value', { formatted: true }),
      { at: [1, 0, 'lumpSum'], issue: 'subscriptions.0.lumpSum', kind: 'object', required: true },
    ],
    // Rows and lump sums pass unknown fields through (a later API version may add some).
  },
  {
    name: 'subscriptions.uploadSignedForm',
    args: () => ['spv_1', 'per_1', pdf(), { filename: 'form.pdf' }],
    call: (c, [spv, person, file, options]) =>
      c.subscriptions.uploadSignedForm(spv as Loose, person as Loose, file as Loose, options as Loose),
    fields: [
      s([0], 'spvSlug'),
      s([1], 'personId'),
      s([3, 'filename'], 'filename', { required: false }),
      s([3, 'contentType'], 'contentType', { required: false, formatted: true }),
    ],
  },
  {
    name: 'subscriptions.uploadFundingReceipt',
    args: () => ['spv_1', 'per_1', receipt()],
    call: (c, [spv, person, input]) =>
      c.subscriptions.uploadFundingReceipt(spv as Loose, person as Loose, input as Loose),
    fields: [
      s([0], 'spvSlug'),
      s([1], 'personId'),
      s([2, 'amount'], 'amount', { formatted: true }),
      s([2, 'currency'], 'currency', { formatted: true }),
      s([2, 'wireReference'], 'wireReference'),
    ],
    objects: [{ at: [2], path: '' }],
  },
  {
    name: 'contracts.templates.get',
    args: () => ['1.0.0', 'spv-standard'],
    call: (c, [version, name]) => c.contracts.templates.get(version as Loose, name as Loose),
    fields: [s([0], 'version'), s([1], 'name')],
  },
  {
    name: 'contracts.samples.list',
    args: () => ['1.0.0'],
    call: (c, [version]) => c.contracts.samples.list(version as Loose),
    fields: [s([0], 'version')],
  },
];

function at(root: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);
}

/** Values that `field` must refuse. */
function hostileFor(field: Field): fc.Arbitrary<unknown> {
  const max = field.max ?? Number.MAX_SAFE_INTEGER;
  const base = field.kind === 'object' ? nonObject : nonString;
  const options: fc.Arbitrary<unknown>[] = [
    // For an integer field, a number is hostile only when it is not an integer in range.
    field.kind === 'int'
      ? base.filter((v) => !(Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= max))
      : base,
  ];
  if (field.kind === 'int') options.push(fc.constantFrom(0, -1, 1.5, Number.NaN, 2 ** 53, '10'));
  if (field.max !== undefined) options.push(fc.integer({ min: field.max + 1 }));
  if (field.kind === 'string' && field.bounded === true) options.push(hugeString);
  if (field.kind === 'string' && field.formatted === true) options.push(unicodeJunk);
  if (field.required) options.push(fc.constant(undefined));
  return fc.oneof(...options);
}

/** Runs `call` and checks: InputValidationError naming `issue`, and zero requests of any kind. */
async function expectRefused(
  method: Method,
  args: unknown[],
  issue: string | ((issue: { path: string; message: string }) => boolean),
): Promise<void> {
  const requests = env.fake.requests.length;
  const tokenRequests = env.fake.tokenRequests.length;
  let error: unknown;
  try {
    await method.call(env.client, args);
  } catch (caught) {
    error = caught;
  }
  expect(error, `${method.name} accepted it`).toBeInstanceOf(InputValidationError);
  const paths = (error as InputValidationError).issues.map((i) => i.path);
  if (typeof issue === 'string') {
    expect(paths).toContain(issue);
    expect((error as Error).message).toContain(issue);
  } else expect((error as InputValidationError).issues.some(issue), (error as Error).message).toBe(true);
  expect(env.fake.requests.length, 'a request reached the fake').toBe(requests);
  expect(env.fake.tokenRequests.length, 'a token request reached the fake').toBe(tokenRequests);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
}

describe.each(METHODS)('hostile input: $name', (method) => {
  it.each(method.fields.map((field) => [field.issue, field] as const))(
    '%s: any invalid value is refused by name, nothing sent',
    async (_issue, field) => {
      await fc.assert(
        fc.asyncProperty(boxed(hostileFor(field)), async ({ value }) => {
          await expectRefused(method, replaceAt(method.args(), field.at, value) as unknown[], field.issue);
        }),
        { numRuns: 40 },
      );
    },
  );

  const objects = method.objects ?? [];
  // Only methods that take input objects (ids-only methods have none).
  if (objects.length === 0) return;
  it('unknown keys (`__proto__`, `constructor`…) are refused by name', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...objects),
        hostileKey,
        boxed(fc.anything()),
        async (object, key, { value }) => {
          const target = at(method.args(), object.at) as object;
          if (Object.hasOwn(target, key)) return; // a known field: the properties above cover it
          const args = replaceAt(method.args(), object.at, withOwnKey(target, key, value)) as unknown[];
          await expectRefused(
            method,
            args,
            (issue) => issue.path === object.path && issue.message.includes(key),
          );
        },
      ),
      { numRuns: 40 },
    );
  });
});
