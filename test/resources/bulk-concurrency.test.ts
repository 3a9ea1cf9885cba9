import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import { deriveIdempotencyKey } from '../../src/core/request/idempotency.js';
import { useTestServer } from '../helpers/test-server.js';
import { investorRows } from './fixtures.js';

const server = useTestServer();

function client(): PartnerEquity {
  return new PartnerEquity({
    baseUrl: server().url,
    authenticator: { getToken: async () => 'token', onUnauthorized: async () => false },
    logLevel: 'off',
  });
}

/**
 * Answers every investors request, counting requests in flight. With `gate`, requests are held until `gate`
 * of them wait (or the last of `total` arrived, for the tail), so the client's concurrency limit is reached
 * however slowly a busy machine sends them.
 */
function investorsServer(gate = 0, total = 0) {
  const stats = { active: 0, maxActive: 0, seen: 0 };
  const held: (() => void)[] = [];
  server().fallback(async (request) => {
    stats.active += 1;
    stats.maxActive = Math.max(stats.maxActive, stats.active);
    stats.seen += 1;
    if (gate > 0) {
      await new Promise<void>((release) => {
        held.push(release);
        if (held.length >= gate || stats.seen === total) for (const next of held.splice(0)) next();
      });
    }
    await delay(1);
    stats.active -= 1;
    const { investors } = JSON.parse(request.text) as { investors: { partnerInvestorId: string }[] };
    // Answered in reverse: results are matched by partnerInvestorId, not by position.
    const results = investors
      .map((row, i) => ({
        partnerInvestorId: row.partnerInvestorId,
        status: 'created',
        servicePersonId: `per_${i}`,
      }))
      .reverse();
    return { status: 200, body: { results } };
  });
  return stats;
}

describe('investors.create chunking on the wire', () => {
  // The requests the server had seen when the SDK first read the last row's email (its row check).
  async function lastRowReadAfter(options: { onProgress?: () => void }): Promise<number | undefined> {
    const stats = investorsServer(3, 10);
    const rows = investorRows(100);
    let readAfter: number | undefined;
    const { email } = rows[99] as { email: string };
    Object.defineProperty(rows[99], 'email', {
      enumerable: true,
      get: () => {
        readAfter ??= stats.seen;
        return email;
      },
    });
    const sdk = client();
    const result = await sdk.investors.create(rows, { chunkSize: 10, concurrency: 3, ...options });
    await sdk.close();
    expect(result.succeeded).toHaveLength(100);
    return readAfter;
  }

  it('sends the first chunks before checking the rest of an array', async () => {
    // Chunk 9 is read only once a lane is free, so after the server held (and answered) the first 3.
    expect(await lastRowReadAfter({})).toBeGreaterThanOrEqual(3);
  });

  it('sends a chunk as soon as a lane is free, before checking the chunks that wait their turn', async () => {
    let checked = 0;
    let checkedAtFirstRequest: number | undefined;
    const stats = investorsServer();
    server().reply((request) => {
      checkedAtFirstRequest = checked;
      stats.seen += 1;
      const { investors } = JSON.parse(request.text) as { investors: { partnerInvestorId: string }[] };
      const results = investors.map((row) => ({ ...row, status: 'created', servicePersonId: 'p' }));
      return { status: 200, body: { results } };
    });
    const rows = investorRows(200).map((row) => {
      const { email } = row as { email: string };
      const get = () => {
        checked += 1;
        return email;
      };
      return Object.defineProperty(row, 'email', { enumerable: true, get });
    });
    const sdk = client();
    const result = await sdk.investors.create(rows, { chunkSize: 10, concurrency: 4 });
    await sdk.close();
    expect(result.succeeded).toHaveLength(200);
    // 4 chunks in flight and 4 ready would be 80 rows: the first request left well before.
    expect(checkedAtFirstRequest).toBeLessThan(80);
  });

  it('with onProgress, checks every row of an array before the first request', async () => {
    expect(await lastRowReadAfter({ onProgress: () => {} })).toBe(0);
  });

  it('keeps at most `concurrency` chunk requests in flight and sends each row once', async () => {
    const stats = investorsServer(3, 10);
    const sdk = client();
    const rows = investorRows(100);
    const result = await sdk.investors.create(rows, { chunkSize: 10, concurrency: 3 });
    await sdk.close();
    expect(stats.maxActive).toBe(3);
    const sent = server().requests.flatMap(
      (r) => (JSON.parse(r.text) as { investors: { partnerInvestorId: string }[] }).investors,
    );
    expect(sent.map((row) => row.partnerInvestorId).sort()).toEqual(
      rows.map((row) => row.partnerInvestorId).sort(),
    );
    expect(result.results.map((r) => r.partnerInvestorId)).toEqual(rows.map((r) => r.partnerInvestorId));
  });

  it('derives each chunk key from the call key and the chunk rows: stable across runs, new when rows change', async () => {
    investorsServer();
    const sdk = client();
    const rows = investorRows(4);
    const keysOf = async (input: typeof rows) => {
      const before = server().requests.length;
      await sdk.investors.create(input, { chunkSize: 2, idempotencyKey: 'run-1' });
      return server()
        .requests.slice(before)
        .map((r) => r.headers['idempotency-key'])
        .sort();
    };
    const first = await keysOf(rows);
    expect(first).toEqual(
      [
        deriveIdempotencyKey('run-1-0', rows.slice(0, 2)),
        deriveIdempotencyKey('run-1-1', rows.slice(2, 4)),
      ].sort(),
    );
    expect(await keysOf(rows)).toEqual(first);
    const changed = [...rows];
    changed[3] = { ...rows[3]!, lastName: 'Changed' };
    const third = await keysOf(changed);
    expect(third).toContain(deriveIdempotencyKey('run-1-0', rows.slice(0, 2)));
    expect(third).not.toContain(deriveIdempotencyKey('run-1-1', rows.slice(2, 4)));
    await sdk.close();
  });

  it.each(['onProgress', 'onChunk'] as const)(
    'an exception from %s ends the call with it, starting no further chunk',
    async (callback) => {
      // With a callback to run between chunks, a chunk is handed over before the next one takes its lane.
      investorsServer();
      const sdk = client();
      const boom = new Error('sink failed');
      const error = await sdk.investors
        .create(investorRows(10), {
          chunkSize: 2,
          concurrency: 1,
          [callback]: () => {
            throw boom;
          },
        })
        .catch((e: unknown) => e);
      await sdk.close();
      expect(error).toBe(boom);
      expect(server().requests).toHaveLength(1);
    },
  );

  it('an answer in order at first and out of order later is paired by key, row by row', async () => {
    const answer = (ids: string[]) =>
      ids.map((id) => ({ partnerInvestorId: id, status: 'created', servicePersonId: `per_${id}` }));
    // Rows 0 and 1 in place, then 3 before 2; then an id nobody sent in place of row 2.
    server().reply({ status: 200, body: { results: answer(['inv-0', 'inv-1', 'inv-3', 'inv-2']) } });
    server().reply({ status: 200, body: { results: answer(['inv-0', 'inv-1', 'inv-x', 'inv-3']) } });
    const sdk = client();
    const swapped = await sdk.investors.create(investorRows(4));
    const unknown = await sdk.investors.create(investorRows(4));
    await sdk.close();
    expect(swapped.results.map((r) => [r.partnerInvestorId, r.servicePersonId])).toEqual(
      ['inv-0', 'inv-1', 'inv-2', 'inv-3'].map((id) => [id, `per_${id}`]),
    );
    expect(unknown.results.map((r) => r.servicePersonId ?? r.error?.code)).toEqual([
      'per_inv-0',
      'per_inv-1',
      'missing_result',
      'per_inv-3',
    ]);
  });

  it('a row the API leaves unanswered comes back failed and retryable', async () => {
    server().reply({
      status: 200,
      body: { results: [{ partnerInvestorId: 'inv-0', status: 'created', servicePersonId: 'p' }] },
    });
    const sdk = client();
    const result = await sdk.investors.create(investorRows(2));
    await sdk.close();
    expect(result.results[1]).toEqual({
      partnerInvestorId: 'inv-1',
      status: 'failed',
      error: { code: 'missing_result', message: 'The API returned no result for this row', retryable: true },
    });
  });
});
