import { describe, expect, it } from 'vitest';
import type { BulkProgress } from '../../src/core/bulk/bulk-chunk.js';
import { APIUserAbortError } from '../../src/core/errors/errors.js';
import type { SubscriptionInput } from '../../src/schemas/subscriptions.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { approvedSpv, investorRows } from './fixtures.js';

const api = useFakeApi();
const TOTAL = 3000;
const CHUNK = 500;

async function setup(env: FakeEnv): Promise<{ spvSlug: string; rows: SubscriptionInput[] }> {
  const spv = await approvedSpv(env);
  const people = await env.client.investors.create(investorRows(TOTAL, 'sub-inv'));
  expect(people.succeeded).toHaveLength(TOTAL);
  // No partnerSubscriptionId: results are paired with rows by position, and only the chunk keys keep a
  // re-run from subscribing anyone twice.
  const rows = people.succeeded.map((person, i) => ({
    servicePersonId: person.servicePersonId,
    shareClassSlug: spv.shareClassSlug,
    lumpSum: { currency: spv.currency, value: `${1000 + i}.00` },
  }));
  return { spvSlug: spv.spvSlug, rows };
}

const posts = (env: FakeEnv, spvSlug: string) =>
  env.apiRequests().filter((r) => r.method === 'POST' && r.path === `/v1/spvs/${spvSlug}/subscriptions`);

describe('subscriptions.create with 3,000 rows', () => {
  it('is chunked (no invented row limit), answers every row in input order and reports progress', async () => {
    const env = await api.start();
    const { spvSlug, rows } = await setup(env);
    const progress: BulkProgress[] = [];
    const result = await env.client.subscriptions.create(spvSlug, rows, {
      idempotencyKey: 'subs-2026-11',
      onProgress: (p) => progress.push({ ...p }),
    });
    expect(posts(env, spvSlug)).toHaveLength(TOTAL / CHUNK);
    expect(new Set(posts(env, spvSlug).map((r) => r.headers['idempotency-key'])).size).toBe(TOTAL / CHUNK);
    expect(result.succeeded).toHaveLength(TOTAL);
    expect(result.failed).toEqual([]);
    expect(result.results.map((r) => (r.error ? undefined : r.personId))).toEqual(
      rows.map((r) => r.servicePersonId),
    );
    expect(progress.at(-1)).toEqual({ done: TOTAL, total: TOTAL, succeeded: TOTAL, failed: 0 });
    expect(progress).toHaveLength(TOTAL / CHUNK);
    expect(env.fake.admin.snapshot().subscriptions).toHaveLength(TOTAL);
  });

  it('a run that crashes midway and is run again with the same key subscribes nobody twice', async () => {
    const env = await api.start();
    const { spvSlug, rows } = await setup(env);
    const key = 'subs-batch-7';
    const crash = new AbortController();
    const first = await env.client.subscriptions
      .create(spvSlug, rows, {
        idempotencyKey: key,
        signal: crash.signal,
        onProgress: ({ done }) => {
          if (done >= 1500) crash.abort(new Error('simulated crash'));
        },
      })
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(APIUserAbortError);
    const before = env.fake.admin.snapshot().subscriptions.length;
    expect(before).toBeGreaterThanOrEqual(1500);
    expect(before).toBeLessThan(TOTAL);

    const rerun = await env.client.subscriptions.create(spvSlug, rows, {
      idempotencyKey: key,
      headers: { 'x-run': 'rerun' },
    });
    expect(rerun.succeeded).toHaveLength(TOTAL);
    const held = env.fake.admin.snapshot().subscriptions;
    expect(held).toHaveLength(TOTAL);
    expect(new Set(held.map((s) => s.personId)).size).toBe(TOTAL);
    const rerunPosts = posts(env, spvSlug).filter((r) => r.headers['x-run'] === 'rerun');
    expect(rerunPosts).toHaveLength(TOTAL / CHUNK);
    expect(rerunPosts.filter((r) => r.replayed).length).toBeGreaterThanOrEqual(3);
  });

  it('a chunk refused for good fails its rows; later chunks are not sent and say so', async () => {
    const env = await api.start();
    const { spvSlug, rows } = await setup(env);
    const match = { method: 'POST', path: `/v1/spvs/${spvSlug}/subscriptions` };
    const result = await env.client.subscriptions.create(spvSlug, rows.slice(0, 1500), {
      concurrency: 1,
      onProgress: ({ done }) => {
        if (done === 500) env.fake.faults.inject({ match, status: 400 });
      },
    });
    expect(result.results.map((r) => r.error?.code ?? 'ok')).toEqual([
      ...Array<string>(500).fill('ok'),
      ...Array<string>(500).fill('request_failed'),
      ...Array<string>(500).fill('not_sent'),
    ]);
    expect(result.retryable).toEqual(rows.slice(1000, 1500));
    expect(env.fake.admin.snapshot().subscriptions).toHaveLength(500);
  });
});
