// Testing an integration against the SDK's fake API: copy this file next to your own code. The fake is a
// stateful Partner Equity (real token checks, idempotency, reviews, signed webhooks) on a loopback port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PartnerEquity } from '@partner-equity/sdk';
import { type FakePartnerCredentials, FakePartnerEquity } from '@partner-equity/sdk/testing';
import { createNodeHandler } from '@partner-equity/sdk/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Deal, dealWebhooks, submitDeal } from './deals.js';

const deal: Deal = {
  id: 'deal-42',
  name: 'Founders Club 42',
  currency: 'EUR',
  targetRaise: '500000',
  carryPercent: '20',
  maxInvestors: 25,
};

let fake: FakePartnerEquity;
let partner: FakePartnerCredentials;
let client: PartnerEquity;

beforeEach(async () => {
  fake = new FakePartnerEquity();
  await fake.listen();
  partner = await fake.createPartner();
  // Tiny backoff: retries after injected faults take milliseconds, not seconds.
  client = new PartnerEquity({ ...partner, retry: { initialDelayMs: 1, maxDelayMs: 5 } });
});

afterEach(async () => {
  await client.close();
  await fake.close();
});

describe('submitDeal', () => {
  it('submits a deal once, however often it runs', async () => {
    const first = await submitDeal(client, deal);
    const again = await submitDeal(client, deal);
    expect(again.spvRequestSlug).toBe(first.spvRequestSlug);
    expect(fake.admin.snapshot().spvRequests).toHaveLength(1);
    expect(first).toMatchObject({ status: 'pending-review', templateId: 'spv-club-deal' });
  });

  it('rides out a 503 with the same Idempotency-Key', async () => {
    fake.faults.inject({ match: { method: 'POST', path: '/v1/spv-requests' }, status: 503 });
    const request = await submitDeal(client, deal);
    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/spv-requests');
    expect(posts.map((r) => r.status)).toEqual([503, 201]);
    const keys = posts.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBeDefined();
    expect(keys[1]).toBe(keys[0]);
    expect(fake.admin.snapshot().spvRequests.map((r) => r.spvRequestSlug)).toEqual([request.spvRequestSlug]);
  });
});

describe('dealWebhooks', () => {
  let server: Server;
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('records the SPV when the request is approved', async () => {
    const spvsByRequest = new Map<string, string>();
    let handle: ReturnType<typeof createNodeHandler> | undefined;
    server = createServer((req, res) => void handle?.(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const { secret } = fake.webhooks.register({ url: `http://127.0.0.1:${port}/webhooks` });
    handle = createNodeHandler(dealWebhooks(secret, client, spvsByRequest));

    const request = await submitDeal(client, deal);
    const approved = fake.admin.approveSpvRequest(request.spvRequestSlug); // the reviewer's action
    await fake.webhooks.flush(); // deliveries in flight have been answered

    expect(spvsByRequest.get(request.spvRequestSlug)).toBe(approved.materialisedRefs?.vehicleSlug);
    expect(fake.webhooks.deliveries.map((d) => [d.eventType, d.state])).toEqual([
      ['spv_request.created', 'delivered'],
      ['spv_request.completed', 'delivered'],
    ]);
  });
});

describe('tokens', () => {
  it('renews an expired token by itself (share the fake clock to move time)', async () => {
    const timed = new PartnerEquity({ ...partner, clock: fake.clock });
    try {
      await timed.oauth.info();
      await fake.clock.advance(2 * 60 * 60 * 1000); // two hours later: the 1 h access token is gone
      await timed.oauth.info();
      expect(fake.tokenRequests.map((r) => [r.grantType, r.status])).toEqual([
        ['urn:ietf:params:oauth:grant-type:jwt-bearer', 201],
        ['refresh_token', 201],
      ]);
    } finally {
      await timed.close();
    }
  });
});
