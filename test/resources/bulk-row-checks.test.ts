import { describe, expect, it } from 'vitest';
import type { BulkProgress } from '../../src/core/bulk/bulk-chunk.js';
import { chunkKey, deriveIdempotencyKey } from '../../src/core/request/idempotency.js';
import { InvestorInput } from '../../src/schemas/investors.js';
import { useFakeApi } from './fake-harness.js';
import { investorRows } from './fixtures.js';

const api = useFakeApi();

// Row checks run per chunk, just before it is sent (later chunks in the background); these pin that the
// call still looks as if every row had been checked up front.
describe('investors.create row checks per chunk', () => {
  it('answers refused rows of later and unsent chunks, counts them from the first progress on, keys unchanged', async () => {
    const env = await api.start();
    const rows = investorRows(8);
    rows[5] = { ...rows[5]!, email: 'broken' };
    rows[6] = { ...rows[6]!, countryOfResidence: 'XXX' };
    rows[7] = { ...rows[7]!, dateOfBirth: '1990-13-01' };
    const progress: BulkProgress[] = [];
    const result = await env.client.investors.create(rows, {
      idempotencyKey: 'import-1',
      chunkSize: 2,
      concurrency: 1,
      onProgress: (p) => {
        progress.push({ ...p });
        if (progress.length === 1) {
          env.fake.faults.inject({ match: { method: 'POST', path: '/v1/investors' }, status: 400 });
        }
      },
    });

    expect(result.results.map((r) => r.error?.code ?? r.status)).toEqual([
      'created',
      'created',
      'request_failed',
      'request_failed',
      'not_sent',
      'invalid_field',
      'invalid_field',
      'invalid_field',
    ]);
    expect(result.failed.slice(-3).map((r) => r.error.field)).toEqual([
      'email',
      'countryOfResidence',
      'dateOfBirth',
    ]);
    // Slot 3 (rows 6-7) has nothing to send: no chunk report, as before.
    expect(result.chunks.map((c) => [c.index, c.rows, c.sent])).toEqual([
      [0, 2, true],
      [1, 2, true],
      [2, 1, false],
    ]);
    // The three refused rows count as done from the very first report.
    expect(progress[0]).toEqual({ done: 5, total: 8, succeeded: 2, failed: 3 });
    expect(progress.at(-1)).toEqual({ done: 8, total: 8, succeeded: 2, failed: 6 });
    const expectedKey = (index: number, from: number, to: number) =>
      deriveIdempotencyKey(
        chunkKey('import-1', index),
        rows.slice(from, to).map((row) => InvestorInput.parse(row)),
      );
    expect(result.chunks.map((c) => c.idempotencyKey)).toEqual([
      expectedKey(0, 0, 2),
      expectedKey(1, 2, 4),
      expectedKey(2, 4, 5),
    ]);
  });

  it("lists a row's bad fields in the order the row type declares them, and names the first", async () => {
    const env = await api.start();
    const [row] = investorRows(1);
    const bad = { ...row!, countryOfResidence: 'XXX', email: 'broken', dateOfBirth: '1990-13-01' };
    const result = await env.client.investors.create([bad]);
    expect(result.results[0]?.error?.field).toBe('email');
    expect(result.results[0]?.error?.message.split('; ').map((part) => part.split(':')[0])).toEqual([
      'email',
      'dateOfBirth',
      'countryOfResidence',
    ]);
    expect(env.fake.requests.filter((r) => r.path === '/v1/investors')).toEqual([]);
  });

  it('hands back the row as given for a retry: nothing trimmed or dropped, unknown fields kept', async () => {
    const env = await api.start();
    const [row] = investorRows(1);
    env.fake.faults.failInvestorRows({ partnerInvestorId: row!.partnerInvestorId });
    const given = { ...row!, firstName: '  Ada  ', middleName: 'B.' };
    const result = await env.client.investors.create([given]);
    expect(result.retryable).toEqual([given]);
  });
});
