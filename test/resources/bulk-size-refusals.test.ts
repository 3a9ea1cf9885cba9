import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import { type Reply, useTestServer } from '../helpers/test-server.js';
import { investorRows } from './fixtures.js';

// A service written by others from the spec: what it says in its 400/422 decides whether a chunk is split.
const server = useTestServer();

function client(): PartnerEquity {
  return new PartnerEquity({
    baseUrl: server().url,
    authenticator: { getToken: async () => 'token', onUnauthorized: async () => false },
    logLevel: 'off',
    retry: { random: () => 0 },
  });
}

const created = (text: string): Reply => {
  const { investors } = JSON.parse(text) as { investors: { partnerInvestorId: string }[] };
  const results = investors.map((row, i) => ({ ...row, status: 'created', servicePersonId: `per_${i}` }));
  return { status: 200, body: { results } };
};

/** Answers `refusal` to every POST with more than `limit` rows (all of them by default), else creates them. */
function serve(refusal: Reply, limit = 0) {
  server().fallback((request) => {
    const { investors } = JSON.parse(request.text) as { investors: unknown[] };
    return investors.length > limit ? refusal : created(request.text);
  });
}

const rowsSent = () =>
  server().requests.map((r) => (JSON.parse(r.text) as { investors: unknown[] }).investors.length);

describe('a bulk chunk is split only when the service says it is too large', () => {
  it('a daily quota is an error for the rows: 2,000 rows make at most 4 requests, and nothing sticks', async () => {
    serve({ status: 400, body: { code: 'import_limit_exceeded', detail: 'Daily import limit exceeded' } });
    const sdk = client();
    const result = await sdk.investors.create(investorRows(2000), { idempotencyKey: 'quota' });
    // The first chunks in flight (at most `concurrency`, 4) are refused; later chunks are not sent.
    expect(server().requests.length).toBeGreaterThanOrEqual(1);
    expect(server().requests.length).toBeLessThanOrEqual(4);
    expect(rowsSent().every((rows) => rows === 500)).toBe(true);
    expect(result.succeeded).toHaveLength(0);
    expect(result.failed).toHaveLength(2000);
    expect(result.chunks.some((chunk) => chunk.split)).toBe(false);
    const refused = result.failed.filter((row) => row.error?.code === 'request_failed');
    expect(refused).toHaveLength(500 * server().requests.length);
    expect(refused.every((row) => row.error?.retryable === false)).toBe(true);
    expect(refused[0]?.error?.message).toContain('Daily import limit exceeded');

    // The quota lifts: a later 300-row call, on this client or one derived from it, is one request.
    server().requests.length = 0;
    serve({ status: 500 }, Number.POSITIVE_INFINITY);
    const later = await sdk.investors.create(investorRows(300, 'later'));
    const derived = await sdk.withOptions({ timeout: 30_000 }).investors.create(investorRows(300, 'derived'));
    expect(later.succeeded).toHaveLength(300);
    expect(derived.succeeded).toHaveLength(300);
    expect(rowsSent()).toEqual([300, 300]);
    await sdk.close();
  });

  it.each([
    ['a 413 with no body', { status: 413 }],
    [
      'a 400 saying the body is too large',
      { status: 400, body: { code: 'bad_request', detail: 'Request body too large' } },
    ],
    [
      'a 400 saying the body is over its size in bytes',
      { status: 400, body: { code: 'invalid_request', detail: 'Body exceeds 65536 bytes' } },
    ],
    [
      'a 422 saying the list has too many items',
      {
        status: 422,
        body: {
          detail: [
            { loc: ['body', 'investors'], msg: 'List should have at most 250 items', type: 'too_long' },
          ],
        },
      },
    ],
    [
      'a 400 saying at most 250 investors',
      {
        status: 400,
        body: {
          code: 'validation_failed',
          detail: 'Validation failed',
          validationErrors: [
            { attribute: 'investors', code: 'limit', message: 'At most 250 investors per request' },
          ],
        },
      },
    ],
  ] as [string, Reply][])('splits on %s', async (_, refusal) => {
    serve(refusal, 250);
    const sdk = client();
    const result = await sdk.investors.create(investorRows(500), { concurrency: 1 });
    await sdk.close();
    expect(result.succeeded).toHaveLength(500);
    expect(rowsSent()).toEqual([500, 250, 250]);
  });

  it.each([
    ['a rate limit in a 400', 'Rate limit exceeded for this partner'],
    ['a monthly quota', 'Quota of 10000 investors per month reached'],
    ['a limit on something else', 'Import limit exceeded'],
    ['too many requests', 'Too many requests'],
  ])('does not split on %s', async (_, detail) => {
    serve({ status: 400, body: { code: 'limit', detail } });
    const sdk = client();
    const result = await sdk.investors.create(investorRows(500), { concurrency: 1 });
    await sdk.close();
    expect(rowsSent()).toEqual([500]);
    expect(result.failed.map((row) => row.error?.code)).toEqual(Array(500).fill('request_failed'));
  });
});
