import { ProxyAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import type { SubscriptionInput } from '../../src/schemas/subscriptions.js';
import { type CappingProxy, startCappingProxy } from '../helpers/capping-proxy.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { approvedSpv, investorRows } from './fixtures.js';

// A body cap appears (or goes) between two runs of the same import with the same idempotencyKey: an egress
// proxy in front of the service answers JSON bodies over 16 KiB with 413. 500 subscription rows are about
// 55 KB, 125 fit.
const CAP = 16 * 1024;
const api = useFakeApi();
const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function setup(): Promise<{
  env: FakeEnv;
  proxy: CappingProxy;
  run: (key: string) => Promise<unknown>;
}> {
  const env = await api.start();
  const proxy = await startCappingProxy();
  open.push(proxy);
  const spv = await approvedSpv(env);
  const people = await env.client.investors.create(investorRows(600, 'cap'));
  // No partnerSubscriptionId: only the idempotency keys stand between a re-run and a second subscription.
  const rows: SubscriptionInput[] = people.succeeded.map((person, i) => ({
    servicePersonId: person.servicePersonId,
    shareClassSlug: spv.shareClassSlug,
    lumpSum: { currency: spv.currency, value: `${1000 + i}.00` },
  }));
  const warnings: string[] = [];
  // Each run is a new process: a client that learned nothing yet, reaching the service through the proxy.
  const run = async (key: string) => {
    const { baseUrl, clientId, issuer, privateKey } = env.credentials;
    const dispatcher = new ProxyAgent(proxy.url);
    open.push(dispatcher);
    const ignore = () => {};
    const logger: ClientOptions['logger'] = {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (l) => warnings.push(l),
    };
    const client = new PartnerEquity({
      baseUrl,
      clientId,
      issuer,
      privateKey,
      clock: env.fake.clock,
      dispatcher,
      logger,
    });
    const result = await client.subscriptions.create(spv.spvSlug, rows, { idempotencyKey: key });
    await client.close();
    return { result, warnings };
  };
  return { env, proxy, run };
}

describe('a body cap between two runs with the same idempotencyKey', () => {
  it('appears: the chunk created whole is not created again in pieces; its rows say so', async () => {
    const { env, proxy, run } = await setup();
    const first = (await run('nightly')) as { result: { succeeded: unknown[] } };
    expect(first.result.succeeded).toHaveLength(600);
    expect(env.fake.admin.snapshot().subscriptions).toHaveLength(600);

    proxy.cap = CAP;
    const { result, warnings } = (await run('nightly')) as {
      result: Awaited<ReturnType<PartnerEquity['subscriptions']['create']>>;
      warnings: string[];
    };
    expect(env.fake.admin.snapshot().subscriptions).toHaveLength(600);
    // Chunk 0 (500 rows) was created whole: its first piece, sent under the chunk's own key, got 409.
    expect(result.failed.map((row) => row.error?.code)).toEqual(Array(500).fill('chunk_sent_before'));
    expect(result.failed.every((row) => row.error?.retryable === false)).toBe(true);
    expect(result.retryable).toEqual([]);
    // Chunk 1 (100 rows) fits under the cap and is replayed.
    expect(result.succeeded).toHaveLength(100);
    expect(result.chunks.filter((c) => c.index === 1).map((c) => c.replayed)).toEqual([true]);
    expect(warnings).toEqual([
      expect.stringMatching(/^subscriptions\.create: 500 rows were not sent \(chunk_sent_before\)/),
    ]);
  });

  it('goes: the chunk created in pieces is replayed in the same pieces', async () => {
    const { env, proxy, run } = await setup();
    proxy.cap = CAP;
    const first = (await run('nightly')) as { result: { succeeded: unknown[] } };
    expect(first.result.succeeded).toHaveLength(600);

    proxy.cap = undefined;
    const before = env.fake.requests.length;
    const { result } = (await run('nightly')) as {
      result: Awaited<ReturnType<PartnerEquity['subscriptions']['create']>>;
    };
    expect(result.succeeded).toHaveLength(600);
    expect(env.fake.admin.snapshot().subscriptions).toHaveLength(600);
    const posted = env.fake.requests.slice(before).filter((r) => r.path.endsWith('/subscriptions'));
    const answered = posted.filter((r) => r.status < 300);
    expect(answered.length).toBeGreaterThan(2);
    expect(answered.every((r) => r.replayed)).toBe(true);
    // The whole chunk's key holds its first piece: 409, then its pieces, each under the key it had.
    expect(posted.filter((r) => r.status === 409).length).toBeGreaterThanOrEqual(1);
  });
});
