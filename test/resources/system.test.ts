import { describe, expect, it } from 'vitest';
import { AuthenticationError, PermissionDeniedError } from '../../src/core/errors/errors.js';
import { useFakeApi } from './fake-harness.js';

const api = useFakeApi();

describe('client.system and client.oauth', () => {
  it('reads the root, health check, OpenAPI document and docs page without a token', async () => {
    const { client, fake } = await api.start();
    const root = await client.system.root();
    expect(root.openapiUrl).toContain('openapi.json');
    const health = await client.system.health();
    expect(health.status).toBe('ok');
    const openapi = await client.system.openapi();
    expect(openapi.openapi).toMatch(/^3\.1/);
    expect(Object.keys(openapi.paths ?? {})).toContain('/v1/spv-requests');
    const docs = await client.system.docs();
    expect(docs).toMatch(/<html/i);
    expect(fake.tokenRequests).toHaveLength(0);
    expect(fake.requests.map((r) => [r.method, r.path, r.headers['authorization']])).toEqual([
      ['GET', '/', undefined],
      ['GET', '/public/hc', undefined],
      ['GET', '/openapi.json', undefined],
      ['GET', '/docs', undefined],
    ]);
  });

  it('oauth.info() describes the token of this client; the raw response is reachable', async () => {
    const { client, clientId, fake } = await api.start();
    const { data, response } = await client.oauth.info().withResponse();
    expect(data).toMatchObject({ clientId, clientType: 'partner' });
    expect(response.status).toBe(200);
    expect(fake.requests.at(-1)?.headers['authorization']).toMatch(/^Bearer /);
  });

  it('oauth.info(): 401 when the token exchange fails (unknown key), 403 is not an error for info', async () => {
    const env = await api.start({ wrongKey: true });
    const error = await env.client.oauth.info().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).errorId).toBeTruthy();
    expect(env.apiRequests()).toHaveLength(0);
    const unprovisioned = await api.partner(env, { provisioned: false });
    // A token describes itself even when the partner API is off; partner endpoints answer 403.
    await expect(unprovisioned.client.oauth.info()).resolves.toMatchObject({
      clientId: unprovisioned.clientId,
    });
    await expect(unprovisioned.client.spvRequests.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
