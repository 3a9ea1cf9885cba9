import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import type { ResponseValidationMode } from '../../src/core/request/response-validation.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { useTestServer } from '../helpers/test-server.js';

// Where the spec shows no shape (contract versions and document lists), a body the SDK does not recognise
// reaches the caller as sent, in `unrecognized`, with one warning per route: never an empty or partial list.

const server = useTestServer();

function client(responseValidation: ResponseValidationMode = 'warn') {
  const logger = memoryLogger();
  const sdk = new PartnerEquity({ baseUrl: server().url, logger, logLevel: 'warn', responseValidation });
  const warnings = () => logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);
  return { sdk, warnings };
}

const template = { name: 'spv-standard', schema: { type: 'object' } };
const unrecognizedLists: [string, unknown][] = [
  ['a map keyed by name instead of an array', { 'spv-standard': template, 'spv-lite': { schema: {} } }],
  ['a wrapper the SDK does not know', { items: [template] }],
  ['string entries', ['spv-standard', 'spv-lite']],
  ['objects and strings mixed (a partial list)', [template, 'spv-lite']],
  ['an empty object', {}],
  ['a number', 42],
];

describe('contract document lists', () => {
  it.each(unrecognizedLists)('%s comes back as sent, with one warning per route', async (_case, body) => {
    const { sdk, warnings } = client();
    server().reply({ body }, { body });
    for (const kind of ['templates', 'templates'] as const) {
      const listed = await sdk.contracts[kind].list('2025-06');
      expect(listed).toEqual({ unrecognized: body });
    }
    expect(warnings()).toEqual([
      expect.stringMatching(
        /^GET \/v1\/contracts\/templates\/\{version\}: the 200 response has a shape this SDK version does not recognise/,
      ),
    ]);
  });

  it.each(unrecognizedLists)(
    '%s comes back as sent in strict mode too (the spec shows no shape)',
    async (_case, body) => {
      const { sdk } = client('strict');
      server().reply({ body });
      expect(await sdk.contracts.samples.list('2025-06')).toEqual({ unrecognized: body });
    },
  );

  it.each([
    ['a plain array', [template], [template]],
    ['the array under the kind', { version: '2025-06', templates: [template] }, [template]],
    ['an empty array', [], []],
    ['an empty array under the kind', { templates: [] }, []],
  ])('%s is read as the documents, without a warning', async (_case, body, documents) => {
    const { sdk, warnings } = client();
    server().reply({ body });
    expect(await sdk.contracts.templates.list('2025-06')).toEqual(documents);
    expect(warnings()).toEqual([]);
  });
});

describe('contract versions', () => {
  it.each([
    ['a map of versions', { '2024-01': { releasedAt: 'x' }, '2025-06': { releasedAt: 'y' } }],
    ['a wrapper the SDK does not know', { items: ['2024-01', '2025-06'] }],
    ['an entry that names no version (a partial list)', ['2024-01', { releasedAt: 'x' }]],
    ['an empty object', {}],
    ['a latest that is not a string', { latest: 7, versions: ['2024-01'] }],
  ])('%s comes back as sent, with no latest and no versions', async (_case, body) => {
    const { sdk, warnings } = client();
    server().reply({ body });
    const read = await sdk.contracts.versions();
    expect(read).toEqual({ latest: undefined, unrecognized: body });
    expect(read.versions).toBeUndefined();
    expect(warnings()).toEqual([expect.stringMatching(/^GET \/v1\/contracts: the 200 response has a shape/)]);
  });

  it.each([
    ['version names', ['2024-01', '2025-06'], '2025-06'],
    ['objects with a version', [{ version: '2025-06' }, { version: '2024-01' }], '2025-06'],
    ['a wrapper naming the latest', { latest: '2024-01', versions: ['2024-01', '2025-06'] }, '2024-01'],
    ['an empty list', [], undefined],
  ])('%s is read', async (_case, body, latest) => {
    const { sdk, warnings } = client();
    server().reply({ body });
    const read = await sdk.contracts.versions();
    expect(read.latest).toBe(latest);
    expect(read).not.toHaveProperty('unrecognized');
    expect(warnings()).toEqual([]);
  });
});

describe('token info (an open shape, passed through)', () => {
  it.each([
    ['other field names', { client_id: 'c', app: 'a' }],
    ['a nested wrapper', { token: { clientId: 'c' } }],
    ['an empty object', {}],
  ])('%s comes back as sent', async (_case, body) => {
    const logger = memoryLogger();
    const sdk = new PartnerEquity({
      baseUrl: server().url,
      logger,
      logLevel: 'warn',
      authenticator: { getToken: async () => 'at_1', onUnauthorized: async () => false },
    });
    server().reply({ body });
    expect(await sdk.oauth.info()).toEqual(body);
  });
});
