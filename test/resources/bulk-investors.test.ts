import { describe, expect, it } from 'vitest';
import type { BulkProgress } from '../../src/core/bulk/bulk-chunk.js';
import { APIUserAbortError } from '../../src/core/errors/errors.js';
import { DEFAULT_CHUNK_SIZE as MAX_INVESTOR_ROWS } from '../../src/resources/bulk-options.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { investorRows } from './fixtures.js';

const api = useFakeApi();
const TOTAL = 25_000;
const posts = (env: FakeEnv) =>
  env.apiRequests().filter((r) => r.method === 'POST' && r.path === '/v1/investors');

describe('25,000 investors in one call', () => {
  it('is chunked at the API row limit, answers every row in input order and reports progress', async () => {
    const env = await api.start();
    const rows = investorRows(TOTAL);
    rows[7] = { ...rows[7]!, email: 'broken' };
    rows[12_345] = { ...rows[12_345]!, dateOfBirth: '1990-13-01' };
    const progress: BulkProgress[] = [];
    const result = await env.client.investors.create(rows, { onProgress: (p) => progress.push({ ...p }) });

    expect(result.results).toHaveLength(TOTAL);
    expect(result.results.every((r, i) => r.partnerInvestorId === rows[i]?.partnerInvestorId)).toBe(true);
    expect(result.succeeded).toHaveLength(TOTAL - 2);
    expect(result.failed.map((r) => [r.partnerInvestorId, r.error?.code])).toEqual([
      ['inv-7', 'invalid_field'],
      ['inv-12345', 'invalid_field'],
    ]);
    expect(posts(env)).toHaveLength(TOTAL / MAX_INVESTOR_ROWS);
    expect(new Set(posts(env).map((r) => r.headers['idempotency-key'])).size).toBe(TOTAL / MAX_INVESTOR_ROWS);
    expect(result.chunks.map((c) => c.rows).filter((n) => n !== MAX_INVESTOR_ROWS)).toEqual([499, 499]);

    expect(progress).toHaveLength(TOTAL / MAX_INVESTOR_ROWS);
    expect(progress.every((p, i) => i === 0 || p.done > (progress[i - 1]?.done ?? 0))).toBe(true);
    expect(progress.at(-1)).toEqual({ done: TOTAL, total: TOTAL, succeeded: TOTAL - 2, failed: 2 });
    expect(env.fake.admin.snapshot().persons).toHaveLength(TOTAL - 2);
  });

  it('a run that crashes midway and is run again with the same key creates no duplicate', async () => {
    const env = await api.start();
    const rows = investorRows(TOTAL);
    const key = 'import-2025-01-01';
    const crash = new AbortController();
    const first = await env.client.investors
      .create(rows, {
        idempotencyKey: key,
        onProgress: ({ done }) => {
          if (done >= 10_000) crash.abort(new Error('simulated crash'));
        },
        signal: crash.signal,
      })
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(APIUserAbortError);
    const createdBeforeCrash = env.fake.admin.snapshot().persons.length;
    expect(createdBeforeCrash).toBeGreaterThanOrEqual(10_000);
    expect(createdBeforeCrash).toBeLessThan(TOTAL);

    // Marked, because answers to the crashed run's last in-flight chunks may still be logged meanwhile.
    const rerun = await env.client.investors.create(rows, {
      idempotencyKey: key,
      headers: { 'x-run': 'rerun' },
    });
    expect(rerun.succeeded).toHaveLength(TOTAL);
    const persons = env.fake.admin.snapshot().persons;
    expect(persons).toHaveLength(TOTAL);
    expect(new Set(persons.map((p) => p.partnerInvestorId)).size).toBe(TOTAL);
    // Chunks the crashed run completed were replayed from the idempotency store, not run again.
    const rerunPosts = posts(env).filter((r) => r.headers['x-run'] === 'rerun');
    expect(rerunPosts).toHaveLength(TOTAL / MAX_INVESTOR_ROWS);
    expect(rerunPosts.filter((r) => r.replayed).length).toBeGreaterThanOrEqual(20);
    // Replayed chunks answer `created` as they first did; the rest answer `existing` or are created now.
    expect(rerun.results.filter((r) => r.status === 'existing').length).toBeLessThanOrEqual(
      4 * MAX_INVESTOR_ROWS,
    );
    expect(rerun.results.every((r, i) => r.partnerInvestorId === rows[i]?.partnerInvestorId)).toBe(true);
  });
});
