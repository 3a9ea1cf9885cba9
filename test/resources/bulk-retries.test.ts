import { describe, expect, it } from 'vitest';
import type { ClientOptions } from '../../src/core/client-options.js';
import { InternalServerError } from '../../src/core/errors/errors.js';
import type { InvestorInput } from '../../src/schemas/investors.js';
import { useFakeApi } from './fake-harness.js';
import { investorRows } from './fixtures.js';

// What a partner writes to retry a bulk call: `result.retryable`, sent again with a new key.
const api = useFakeApi();

async function* stream(rows: InvestorInput[]): AsyncGenerator<InvestorInput> {
  yield* rows;
}

function warnings(): { lines: string[]; logger: ClientOptions['logger'] } {
  const lines: string[] = [];
  const ignore = () => {};
  return { lines, logger: { debug: ignore, info: ignore, error: ignore, warn: (line) => lines.push(line) } };
}

describe('bulk retries', () => {
  it('keeps `retryable` for a stream handed to onChunk', async () => {
    const env = await api.start();
    env.fake.faults.failInvestorRows({ partnerInvestorId: 'inv-7' });
    const rows = investorRows(20);
    const handed: string[] = [];
    const result = await env.client.investors.create(stream(rows), {
      chunkSize: 5,
      onChunk: ({ results }) => {
        handed.push(...results.map((r) => r.partnerInvestorId));
      },
    });
    expect(handed).toHaveLength(20);
    expect(result.results).toEqual([]);
    expect(result.retryable).toEqual([rows[7]]);
  });

  it('resolves with every row when every chunk failed, as when some did', async () => {
    const env = await api.start();
    env.fake.faults.inject({ match: { method: 'POST', path: '/v1/investors' }, status: 503, times: 100 });
    const rows = investorRows(6);
    const result = await env.client.investors.create(rows, { chunkSize: 2 });
    expect(result.failed.map((r) => r.error?.code)).toEqual(Array(6).fill('request_failed'));
    expect(result.retryable).toEqual(rows);
    expect(result.error).toBeUndefined(); // transient: later chunks were sent, nothing stopped the call
    expect(result.chunks.map((c) => c.error)).toEqual(Array(3).fill(expect.any(InternalServerError)));
  });

  it('says that a re-run with the same key replays transient row failures, and the retry with a new key passes', async () => {
    const env = await api.start();
    const warned = warnings();
    const client = env.client.withOptions({ logger: warned.logger, logLevel: 'warn' });
    env.fake.faults.failInvestorRows({ partnerInvestorId: 'inv-3' });
    const rows = investorRows(10);
    const first = await client.investors.create(rows, { idempotencyKey: 'nightly-1' });
    expect(first.retryable).toEqual([rows[3]]);
    expect(warned.lines).toEqual([]);

    // The same run again (a crash and a re-run): the API replays the answer, the failure included.
    const again = await client.investors.create(rows, { idempotencyKey: 'nightly-1' });
    expect(again.chunks.map((c) => c.replayed)).toEqual([true]);
    expect(again.retryable).toEqual([rows[3]]);
    expect(warned.lines).toEqual([
      expect.stringMatching(
        /^investors\.create: 1 rows failed transiently in answers the API replayed .* with a new idempotencyKey$/,
      ),
    ]);

    const retried = await client.investors.create(again.retryable, { idempotencyKey: 'nightly-1-retry-1' });
    expect(retried.succeeded.map((r) => r.partnerInvestorId)).toEqual(['inv-3']);
  });
});
