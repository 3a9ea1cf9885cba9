// A bulk chunk split to fit a body cap, as an on-call engineer reads it in the traces: the split as an event
// on the bulk span, the 413 the SDK handled not an ERROR, and the chunk size actually sent.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../resources/fake-harness.js';
import { investorRows } from '../resources/fixtures.js';
import { parentOf, useTracing } from './otel-harness.js';

const api = useFakeApi();
const otel = useTracing();

describe('a bulk chunk split to fit', () => {
  it('is an event with the sizes; the handled 413 is no ERROR; chunk_size is the size sent', async () => {
    // 500 investor rows (about 85 KB) do not fit under 64 KiB; 250 do.
    const env = await api.start({
      fake: { maxBodyBytes: 64 * 1024 },
      client: { tracerProvider: otel.provider },
    });
    const result = await env.client.investors.create(investorRows(1000), { concurrency: 1 });
    expect(result.succeeded).toHaveLength(1000);

    const [bulk] = otel.named('investors.create', SpanKind.INTERNAL);
    expect(bulk?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(bulk?.attributes['partner_equity.bulk.chunk_size']).toBe(250);
    // Chunk 0 was refused, then split; chunk 1 was split before sending (the client learned the size).
    expect(bulk?.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'split',
        {
          'partner_equity.bulk.chunk_index': 0,
          'partner_equity.bulk.split.reason': 'bytes',
          'partner_equity.bulk.split.rows_before': 500,
          'partner_equity.bulk.split.rows_after': 250,
        },
      ],
      [
        'split',
        {
          'partner_equity.bulk.chunk_index': 1,
          'partner_equity.bulk.split.reason': 'bytes',
          'partner_equity.bulk.split.rows_before': 500,
          'partner_equity.bulk.split.rows_after': 250,
          'partner_equity.bulk.split.before_sending': true,
        },
      ],
    ]);

    const requests = otel.named('investors.create', SpanKind.CLIENT);
    expect(requests.map((span) => span.attributes['http.response.status_code'])).toEqual([
      413, 200, 200, 200, 200,
    ]);
    for (const span of requests) {
      expect(parentOf(span)).toBe(bulk?.spanContext().spanId);
      expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    }
    const [refused] = requests;
    expect(refused?.events.map((event) => [event.name, event.attributes])).toEqual([
      ['handled', { 'partner_equity.handled_by': 'split', 'error.type': '413' }],
    ]);
  });

  it('a 413 the SDK could not handle (one row over the cap) is still an ERROR', async () => {
    const env = await api.start({ fake: { maxBodyBytes: 512 }, client: { tracerProvider: otel.provider } });
    const [row] = investorRows(1);
    const result = await env.client.investors.create([{ ...row!, lastName: 'x'.repeat(600) }]);
    expect(result.failed.map((r) => r.error?.code)).toEqual(['request_failed']);
    const [request] = otel.named('investors.create', SpanKind.CLIENT);
    expect(request?.status.code).toBe(SpanStatusCode.ERROR);
  });
});
