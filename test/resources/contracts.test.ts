import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  InputValidationError,
  UnprocessableEntityError,
} from '../../src/core/errors/errors.js';
import { PartnerEquity } from '../../src/index.js';
import { useFakeApi } from './fake-harness.js';

const api = useFakeApi();

const kinds = ['templates', 'catalogs', 'primitives', 'samples'] as const;

const documentName = (doc: Record<string, unknown>): string => {
  const name = ['name', 'sampleId', 'catalogId', 'primitiveId', 'templateId']
    .map((k) => doc[k])
    .find((v) => typeof v === 'string');
  return typeof name === 'string' ? name : '';
};

describe('client.contracts', () => {
  it('lists the versions, then every kind of document of the latest one, and reads each by name', async () => {
    const { client, fake } = await api.start();
    const { latest, versions } = await client.contracts.versions();
    if (latest === undefined) throw new Error('no latest version');
    expect(versions?.map((v) => v.version)).toContain(latest);
    for (const kind of kinds) {
      const listed = await client.contracts[kind].list(latest);
      // A list keyed by name (the alternate profile's templates) is a shape the SDK hands over as sent.
      const documents = (
        'unrecognized' in listed ? Object.values(Object(listed.unrecognized)) : listed
      ) as Record<string, unknown>[];
      expect(documents.length).toBeGreaterThan(0);
      // The spec does not show document fields: the name is `name` here, `templateId` or the like elsewhere.
      const name = documentName(documents[0] ?? {});
      const one = await client.contracts[kind].get(latest, name);
      expect(documentName(one)).toBe(name);
    }
    const template = await client.contracts.templates.get(latest, 'spv-standard');
    expect(JSON.stringify(template)).toContain('"shareClasses"');
    expect(fake.requests.map((r) => r.path)).toContain(`/v1/contracts/templates/${latest}/spv-standard`);
  });

  it('sends the bearer token on contracts when the client has credentials (one exchange for all)', async () => {
    const { client, fake } = await api.start();
    await client.contracts.versions();
    await client.contracts.templates.list('2025-06');
    const contracts = fake.requests.filter((r) => r.path.startsWith('/v1/contracts'));
    expect(contracts).toHaveLength(2);
    for (const request of contracts) expect(request.headers['authorization']).toMatch(/^Bearer /);
    expect(fake.tokenRequests).toHaveLength(1);
  });

  it('a 401 on contracts renews the token and sends the call once more', async () => {
    const { client, fake } = await api.start();
    await client.contracts.versions();
    fake.faults.inject({ match: { method: 'GET', path: '/v1/contracts' }, status: 401 });
    const { latest } = await client.contracts.versions();
    expect(latest).toBeDefined();
    expect(fake.tokenRequests).toHaveLength(2);
    const paths = fake.requests.filter((r) => r.path === '/v1/contracts');
    expect(paths).toHaveLength(3);
  });

  it('without credentials, contracts go without a token: an open server answers, another says 401', async () => {
    const { fake, credentials } = await api.start();
    const open = new PartnerEquity({ baseUrl: credentials.baseUrl });
    try {
      const outcome = await open.contracts.versions().catch((error: unknown) => error);
      if (fake.profile === 'alternate') expect(outcome).toBeInstanceOf(AuthenticationError);
      else expect(outcome).toMatchObject({ latest: '2025-06' });
      const sent = fake.requests.filter((r) => r.path === '/v1/contracts').at(-1);
      expect(sent?.headers['authorization']).toBeUndefined();
      expect(fake.tokenRequests).toHaveLength(0);
    } finally {
      await open.close();
    }
  });

  it.each(kinds)('%s: an unknown version or name is a 422 with the validation envelope', async (kind) => {
    const { client } = await api.start();
    const latest = (await client.contracts.versions()).latest ?? '';
    const badVersion = await client.contracts[kind].list('1999-01').catch((error: unknown) => error);
    expect(badVersion).toBeInstanceOf(UnprocessableEntityError);
    expect((badVersion as UnprocessableEntityError).status).toBe(422);
    expect((badVersion as UnprocessableEntityError).issues[0]?.loc).toEqual(['path', 'version']);
    const badName = await client.contracts[kind].get(latest, 'no-such-doc').catch((error: unknown) => error);
    expect(badName).toBeInstanceOf(UnprocessableEntityError);
    expect((badName as UnprocessableEntityError).detail).toContain('no-such-doc');
  });

  it('refuses empty path parameters before sending, naming each', async () => {
    const { client, fake } = await api.start();
    const error = await client.contracts.samples.get('', '').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues.map((issue) => issue.path)).toEqual(['version', 'name']);
    await expect(client.contracts.templates.list('')).rejects.toThrow(/version: Required/);
    expect(fake.requests).toHaveLength(0);
  });

  it('percent-encodes path parameters', async () => {
    const { client, fake } = await api.start();
    await client.contracts.templates.get('2025-06', 'a/b c').catch(() => undefined);
    expect(fake.requests.at(-1)?.path).toBe('/v1/contracts/templates/2025-06/a%2Fb%20c');
  });
});
