import { describe, expect, it } from 'vitest';
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
    expect(Object.keys(openapi.paths)).toContain('/v1/spv-requests');
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
});
