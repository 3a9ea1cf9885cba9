// What the fake saw, counted (issue 47): without a debug logger on the client, a test or a script reads how
// many requests the fake answered 429 or 413 (or any status), by route, from `fake.requestCounts()` and
// from `GET /__admin/requests` (the typed admin client's `requests()`), which agree.
import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/index.js';
import { FakeAdminApiError, FakePartnerEquity, fakeAdminClient } from '../../src/testing/index.js';
import { investor } from './helpers.js';

async function setUp(onTestFinished: (fn: () => Promise<void>) => void) {
  const fake = new FakePartnerEquity({ adminApi: {}, rateLimit: '3/s', maxBodyBytes: 4096 });
  onTestFinished(() => fake.close());
  const { baseUrl } = await fake.listen();
  const client = new PartnerEquity({
    ...(await fake.createPartner()),
    clock: fake.clock,
    logLevel: 'off',
    rateLimit: false,
    maxRetries: 0,
  });
  onTestFinished(() => client.close());
  return { fake, client, admin: fakeAdminClient({ baseUrl }) };
}

describe('what the fake answered, by route and status', () => {
  it('counts the 429s of the rate limit, the 413s of the body cap and an injected 503, in the fake and over HTTP', async ({
    onTestFinished,
  }) => {
    const { fake, client, admin } = await setUp(onTestFinished);
    await client.oauth.info(); // 1 of the 3 this second (the token request is not counted)
    const many = await Promise.allSettled([1, 2, 3, 4, 5].map(() => client.oauth.info()));
    expect(many.filter((r) => r.status === 'rejected')).toHaveLength(3);
    await fake.clock.advance(1000);
    // 40 rows, some 6 KB: 413, then two halves that fit.
    const rows = Array.from({ length: 40 }, (_, i) => investor(`cap-${i}`));
    const created = await client.investors.create(rows, { chunkSize: 40 });
    expect(created.succeeded).toHaveLength(40);
    await fake.clock.advance(1000);
    fake.faults.inject({ match: { method: 'GET', path: '/v1/oauth2/info' }, status: 503, times: 1 });
    await expect(client.oauth.info()).rejects.toMatchObject({ status: 503 });

    const counts = {
      total: 11,
      byStatus: { '200': 5, '201': 1, '413': 1, '429': 3, '503': 1 },
      byRoute: {
        'POST /v1/oauth2/tokens': { '201': 1 },
        'GET /v1/oauth2/info': { '200': 3, '429': 3, '503': 1 },
        'POST /v1/investors': { '200': 2, '413': 1 },
      },
    };
    expect(fake.requestCounts()).toEqual(counts);
    const report = await admin.requests();
    expect(report).toEqual({ ...counts, requests: expect.any(Array) });
    // The newest first, as the fake recorded them, without their headers (they carry tokens).
    expect(report.requests).toHaveLength(11);
    expect(report.requests[0]).toEqual({
      method: 'GET',
      path: '/v1/oauth2/info',
      route: '/v1/oauth2/info',
      query: '',
      status: 503,
      at: fake.requests.at(-1)?.at,
      fault: 'status',
    });
    expect(report.requests.map((r) => r.status)).toEqual(fake.requests.map((r) => r.status).reverse());
    expect(JSON.stringify(report)).not.toMatch(/authorization|bearer/i);
  });

  it('?limit= keeps the newest requests (0: counts only), and refuses a limit it cannot read', async ({
    onTestFinished,
  }) => {
    const { fake, client, admin } = await setUp(onTestFinished);
    await client.oauth.info();
    const two = await admin.requests({ limit: 1 });
    expect(two.total).toBe(2);
    expect(two.requests.map((r) => r.path)).toEqual(['/v1/oauth2/info']);
    expect((await admin.requests({ limit: 0 })).requests).toEqual([]);
    for (const limit of [-1, 1001, 1.5]) {
      const error = await admin.requests({ limit }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FakeAdminApiError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    }
    // The admin API's own requests are not the partner's: never counted.
    expect(fake.requestCounts().total).toBe(2);
  });

  it('a path no route takes is counted under its own path', async ({ onTestFinished }) => {
    const { fake, client } = await setUp(onTestFinished);
    await client.oauth.info();
    const response = await fetch(`${fake.baseUrl}/v1/nowhere`);
    expect(response.status).toBe(404);
    expect(fake.requestCounts().byRoute['GET /v1/nowhere']).toEqual({ '404': 1 });
  });
});
