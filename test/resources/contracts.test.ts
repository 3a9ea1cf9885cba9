import { describe, expect, it } from 'vitest';
import { InputValidationError, UnprocessableEntityError } from '../../src/core/errors.js';
import { useFakeApi } from './fake-harness.js';

const api = useFakeApi();

const kinds = ['templates', 'catalogs', 'primitives', 'samples'] as const;

describe('client.contracts', () => {
  it('lists the versions, then every kind of document of the latest one, and reads each by name', async () => {
    const { client, fake } = await api.start();
    const { latest, versions } = await client.contracts.versions();
    expect(versions.map((v) => v.version)).toContain(latest);
    for (const kind of kinds) {
      const list = await client.contracts[kind].list(latest);
      const documents = (list as unknown as Record<string, { name: string }[]>)[kind] ?? [];
      expect(list.version).toBe(latest);
      expect(documents.length).toBeGreaterThan(0);
      const first = documents[0]!;
      const one = await client.contracts[kind].get(latest, first.name);
      expect(one).toMatchObject({ name: first.name, version: latest });
    }
    const template = await client.contracts.templates.get(latest, 'spv-standard');
    expect(template.schema).toHaveProperty('type', 'object');
    // Contracts need no token: nothing went to the token endpoint.
    expect(fake.tokenRequests).toHaveLength(0);
    expect(fake.requests.map((r) => r.path)).toContain(`/v1/contracts/templates/${latest}/spv-standard`);
  });

  it.each(kinds)('%s: an unknown version or name is a 422 with the validation envelope', async (kind) => {
    const { client } = await api.start();
    const { latest } = await client.contracts.versions();
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
