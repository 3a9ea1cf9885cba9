import { describe, expect, it } from 'vitest';
import type { BulkProgress } from '../../src/core/bulk/bulk-chunk.js';
import type { InvestorInput } from '../../src/schemas/investors.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { approvedSpv, investorRows } from './fixtures.js';

const api = useFakeApi();

const sentKeys = (env: FakeEnv, path: string) =>
  env
    .apiRequests()
    .filter((r) => r.method === 'POST' && r.path === path)
    .map((r) => r.headers['idempotency-key']);

/** The rows as a stream, counting how many were read. */
function streamOf<T>(rows: readonly T[], read = { count: 0 }, failAt?: number) {
  return {
    read,
    async *[Symbol.asyncIterator]() {
      for (const row of rows) {
        if (read.count === failAt) throw new Error('the file went away');
        read.count += 1;
        yield row;
      }
    },
  };
}

describe('bulk calls fed by an AsyncIterable', () => {
  it('sends the keys an array sends, hands each chunk to onChunk in order and keeps no rows', async () => {
    const env = await api.start();
    const rows = investorRows(2_000, 'stream');
    rows[3] = { ...rows[3]!, email: 'broken' }; // refused: a hole in chunk 0
    rows[700] = { ...rows[700]!, partnerInvestorId: 'stream-699' }; // a duplicate in the chunks in flight
    const fromArray = await env.client.investors.create(rows, { idempotencyKey: 'same', chunkSize: 300 });
    const arrayKeys = sentKeys(env, '/v1/investors');

    const chunks: { index: number; rows: number; codes: (string | undefined)[] }[] = [];
    const progress: BulkProgress[] = [];
    const source = streamOf(rows);
    const fromStream = await env.client.investors.create(source, {
      idempotencyKey: 'same',
      chunkSize: 300,
      onChunk: ({ index, rows: chunkRows, results }) => {
        // Never more read than this chunk and the 8 held after it (4 in flight, 4 more awaiting their turn).
        expect(source.read.count).toBeLessThanOrEqual((index + 9) * 300);
        chunks.push({ index, rows: chunkRows.length, codes: results.map((r) => r.error?.code) });
      },
      onProgress: (p) => progress.push({ ...p }),
    });
    expect(sentKeys(env, '/v1/investors').slice(arrayKeys.length).sort()).toEqual(arrayKeys.sort());
    expect(fromStream.chunks.map((c) => c.idempotencyKey)).toEqual(
      fromArray.chunks.map((c) => c.idempotencyKey),
    );
    expect(chunks.map((c) => [c.index, c.rows])).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((i) => [i, i < 6 ? 300 : 200]),
    );
    expect(chunks[0]?.codes[3]).toBe('invalid_field');
    expect(chunks[2]?.codes[100]).toBe('duplicate_in_request');
    expect(fromStream.results).toEqual([]);
    expect(progress.at(-1)).toEqual({ done: 2_000, total: 2_000, succeeded: 1_998, failed: 2 });
    expect(progress[0]?.total).toBeGreaterThanOrEqual(300);
  });

  it('without onChunk, a stream answers like an array: every result and the retryable rows', async () => {
    const env = await api.start();
    const rows = investorRows(10, 'kept');
    const result = await env.client.investors.create(streamOf(rows), { chunkSize: 4 });
    expect(result.results.map((r) => r.partnerInvestorId)).toEqual(rows.map((r) => r.partnerInvestorId));
    expect(result.succeeded).toHaveLength(10);
  });

  it('a stream that fails stops the call: the chunks sent are answered, the chunk being filled is not sent', async () => {
    const env = await api.start();
    const rows = investorRows(1_000, 'fails');
    const delivered: number[] = [];
    const error = await env.client.investors
      .create(streamOf(rows, { count: 0 }, 650), {
        chunkSize: 200,
        onChunk: ({ index }) => {
          delivered.push(index);
        },
      })
      .catch((e: unknown) => e);
    expect(error).toEqual(new Error('the file went away'));
    expect(delivered).toEqual([0, 1, 2]);
    expect(env.fake.admin.snapshot().persons).toHaveLength(600);
  });

  it('subscriptions: a streamed row failing the input check holds its chunk back whole', async () => {
    const env = await api.start();
    const spv = await approvedSpv(env);
    const people = await env.client.investors.create(investorRows(6, 'held'));
    const rows = people.succeeded.map((person) => ({
      servicePersonId: person.servicePersonId,
      shareClassSlug: spv.shareClassSlug,
      lumpSum: { currency: spv.currency, value: '100.00' },
    }));
    rows[3] = { ...rows[3]!, lumpSum: { currency: spv.currency, value: '-5' } };
    const result = await env.client.subscriptions.create(spv.spvSlug, streamOf(rows), { chunkSize: 2 });
    expect(result.results.map((r) => r.error?.code)).toEqual([
      undefined,
      undefined,
      'not_sent',
      'invalid_field',
      undefined,
      undefined,
    ]);
    expect(result.results[2]?.error?.message).toBe(
      'Not sent: another row of this chunk was refused and the API takes a request whole; fix it and send this row again',
    );
    expect(result.chunks.map((c) => c.sent)).toEqual([true, false, true]);
    expect(env.fake.admin.snapshot().subscriptions).toHaveLength(4);
  });

  it('an input that is neither an array nor an AsyncIterable is refused before anything is sent', async () => {
    const env = await api.start();
    const error = await env.client.investors
      .create(new Set(investorRows(2)) as unknown as InvestorInput[])
      .catch((e: unknown) => e);
    expect(String(error)).toMatch(/Expected an array or an AsyncIterable of investor rows/);
    expect(env.apiRequests()).toEqual([]);
  });
});
