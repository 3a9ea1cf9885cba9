import { describe, expect, it } from 'vitest';
import { deriveIdempotencyKey } from '../../src/index.js';
import { useFakeApi } from './fake-harness.js';

const api = useFakeApi();

/** A `fetch` that keeps the text of every bulk body it sends, with its key, then sends it. */
function recordingFetch(sent: { key: string | null; body: string }[]): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === '/v1/investors' && typeof init?.body === 'string') {
      sent.push({ key: new Headers(init.headers).get('idempotency-key'), body: init.body });
    }
    return globalThis.fetch(input, init);
  };
}

describe('a bulk chunk on the wire', () => {
  it('is sent as the exact stable JSON its Idempotency-Key was hashed from', async () => {
    const sent: { key: string | null; body: string }[] = [];
    const env = await api.start({ client: { fetch: recordingFetch(sent) } });
    // Fields out of alphabetical order, and one the spec does not state: stable JSON sorts them all.
    const rows = [
      { partnerInvestorId: 'inv-1', lastName: 'Lovelace', email: 'ada@example.com' },
      { partnerInvestorId: 'inv-2', firstName: 'Alan', extra: { z: 1, a: [2, 'x'] } },
      { partnerInvestorId: 'inv-3', countryOfResidence: 'GB' },
    ];
    const result = await env.client.investors.create(rows, {
      idempotencyKey: 'wire-run',
      chunkSize: 2,
      concurrency: 1,
    });

    expect(result.chunks.map((chunk) => chunk.status)).toEqual([200, 200]);
    expect(sent).toEqual([
      {
        key: deriveIdempotencyKey('wire-run-0', rows.slice(0, 2)),
        body:
          '{"investors":[{"email":"ada@example.com","lastName":"Lovelace","partnerInvestorId":"inv-1"},' +
          '{"extra":{"a":[2,"x"],"z":1},"firstName":"Alan","partnerInvestorId":"inv-2"}]}',
      },
      {
        key: deriveIdempotencyKey('wire-run-1', rows.slice(2)),
        body: '{"investors":[{"countryOfResidence":"GB","partnerInvestorId":"inv-3"}]}',
      },
    ]);
    expect(result.chunks.map((chunk) => chunk.idempotencyKey)).toEqual(sent.map((chunk) => chunk.key));
  });
});
