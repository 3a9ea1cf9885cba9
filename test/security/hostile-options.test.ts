import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import { InputValidationError } from '../../src/core/errors/errors.js';
import { investorRow, pdf, type ReliabilityEnv, startEnv } from '../reliability/fake-env.js';
import { boxed, hostileKey, nonObject, nonString } from './hostile-values.js';

/**
 * The per-call options every method takes, and the client's own options, under hostile values: a typed
 * `InputValidationError` naming the option, nothing sent. (A header with a line break used to leave as a
 * "connection error" from undici; a string `signal` or `null` options as a `TypeError`.)
 */
const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
let env: ReliabilityEnv;
beforeAll(async () => {
  env = await startEnv();
  await env.client.oauth.info();
});
afterAll(() => env.close());

// biome-ignore lint/suspicious/noExplicitAny: hostile callers ignore the types; so does this table.
type Loose = any;
const CALLS: [string, (options: unknown) => PromiseLike<unknown>][] = [
  ['system.health', (o) => env.client.system.health(o as Loose)],
  ['oauth.info', (o) => env.client.oauth.info(o as Loose)],
  ['contracts.versions', (o) => env.client.contracts.versions(o as Loose)],
  ['contracts.templates.list', (o) => env.client.contracts.templates.list('1.0.0', o as Loose)],
  ['spvRequests.list', (o) => env.client.spvRequests.list({}, o as Loose)],
  ['spvRequests.get', (o) => env.client.spvRequests.get('spvreq_1', o as Loose)],
  ['spvRequests.cancel', (o) => env.client.spvRequests.cancel('spvreq_1', o as Loose)],
  [
    'spvRequests.create',
    (o) => env.client.spvRequests.create({ templateId: 't', attributes: {} }, o as Loose),
  ],
  ['investors.create', (o) => env.client.investors.create([investorRow('inv-options')], o as Loose)],
  [
    'subscriptions.uploadSignedForm',
    (o) => env.client.subscriptions.uploadSignedForm('spv_1', 'per_1', pdf(), o as Loose),
  ],
  [
    'subscriptions.uploadFundingReceipt',
    (o) =>
      env.client.subscriptions.uploadFundingReceipt(
        'spv_1',
        'per_1',
        { file: pdf(), amount: '1.00', currency: 'EUR', wireReference: 'W' },
        o as Loose,
      ),
  ],
];

/** One bad option and the issue path that must name it. */
const badOption: fc.Arbitrary<{ options: unknown; issue: string }> = fc.oneof(
  boxed(fc.oneof(fc.constantFrom(0, '', 'x', true), fc.array(fc.anything(), { maxLength: 2 }))).map(
    ({ value }) => ({
      options: value,
      issue: 'options',
    }),
  ),
  boxed(
    fc
      .oneof(nonObject, fc.constantFrom(-1, 0, Number.NaN, Number.POSITIVE_INFINITY))
      .filter((value) => !(typeof value === 'number' && Number.isFinite(value) && value > 0)),
  ).map(({ value }) => ({
    options: { timeout: value },
    issue: 'timeout',
  })),
  boxed(
    fc
      .oneof(nonObject, fc.constantFrom(-1, 1.5, Number.NaN))
      .filter((value) => !(Number.isSafeInteger(value) && (value as number) >= 0)),
  ).map(({ value }) => ({
    options: { maxRetries: value },
    issue: 'maxRetries',
  })),
  boxed(fc.oneof(nonObject, fc.constant({ aborted: false }), fc.constant(new AbortController()))).map(
    ({ value }) => ({
      options: { signal: value },
      issue: 'signal',
    }),
  ),
  fc
    .tuple(
      fc.constantFrom('x-partner', 'x-trace'),
      fc.oneof(boxed(nonString), boxed(fc.constantFrom('a\r\nx-injected: 1', 'a\nb', 'a\0b'))),
    )
    .map(([name, { value }]) => ({ options: { headers: { [name]: value } }, issue: `headers.${name}` })),
  fc
    .constantFrom('bad name', 'x:y', 'é', '', 'a\r\nb')
    .map((name) => ({ options: { headers: { [name]: 'v' } }, issue: `headers.${name}` })),
);

describe('hostile per-call options', () => {
  it.each(CALLS)('%s: refuses each bad option by name, sends nothing', async (_name, call) => {
    await fc.assert(
      fc.asyncProperty(badOption, async ({ options, issue }) => {
        const requests = env.fake.requests.length + env.fake.tokenRequests.length;
        const error = await Promise.resolve()
          .then(() => call(options))
          .then(
            () => undefined,
            (caught: unknown) => caught,
          );
        expect(error).toBeInstanceOf(InputValidationError);
        expect((error as InputValidationError).issues.map((i) => i.path)).toContain(issue);
        expect(env.fake.requests.length + env.fake.tokenRequests.length).toBe(requests);
      }),
      { numRuns: 30 },
    );
  });

  it.each(CALLS)('%s: null options mean none (no TypeError)', async (_name, call) => {
    const error = await Promise.resolve()
      .then(() => call(null))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error === undefined || !(error instanceof TypeError)).toBe(true);
  });
});

describe('hostile client options', () => {
  const base = () => ({
    baseUrl: env.fake.baseUrl,
    clientId: 'client_x',
    issuer: 'https://partner.example',
    privateKey: pem,
  });
  const KNOWN = new Set(
    'baseUrl clientId issuer privateKey signer keyId maxRetries timeout deadline retry fetch dispatcher logger logLevel defaultHeaders clock maxResponseBytes authenticator'.split(
      ' ',
    ),
  );
  const fields: [string, fc.Arbitrary<unknown>][] = [
    [
      'baseUrl',
      fc.oneof(nonString, fc.constantFrom('', 'not a url', 'ftp://x.example', 'javascript:alert(1)')),
    ],
    ['clientId', fc.oneof(nonString, fc.constant(''))],
    ['issuer', nonString],
    ['privateKey', fc.oneof(fc.constantFrom(42, null, true, [], 'not a key'))],
    ['maxRetries', fc.constantFrom(-1, 1.5, '2', Number.NaN, null)],
    ['timeout', fc.constantFrom(0, -1, '60s', Number.NaN, Number.POSITIVE_INFINITY)],
    ['defaultHeaders', fc.oneof(nonObject, fc.constant({ 'x-a': 5 }))],
  ];

  it.each(fields)('%s: a bad value throws InputValidationError naming it', (name, arbitrary) => {
    fc.assert(
      fc.property(boxed(arbitrary), ({ value }) => {
        let error: unknown;
        try {
          new PartnerEquity({ ...base(), [name]: value } as Loose);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(InputValidationError);
        expect((error as InputValidationError).issues.map((i) => i.path.split('.')[0])).toContain(name);
      }),
      { numRuns: 30 },
    );
  });

  it('unknown option names (typos, `__proto__`) are refused by name', () => {
    fc.assert(
      fc.property(hostileKey, boxed(fc.anything()), (key, { value }) => {
        if (KNOWN.has(key) || value === undefined) return; // an absent value is no option at all
        const options: Record<string, unknown> = base();
        Object.defineProperty(options, key, { value, enumerable: true });
        let error: unknown;
        try {
          new PartnerEquity(options as Loose);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(InputValidationError);
        expect((error as Error).message).toContain(key);
      }),
      { numRuns: 60 },
    );
  });
});
