// One CONSUMER span per webhook delivery: verification outcome, event type, the duplicate verdict, and the
// handlers' duration and outcome.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import { WebhookReceiver } from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { completedEvent, delivery, NOW_MS, OTHER_SECRET, SECRET } from '../webhooks/fixtures.js';
import { exportedText, parentOf, useTracing } from './otel-harness.js';

const otel = useTracing();
const quiet = { warn() {}, error() {} };

function receiver(handler: () => void = () => {}) {
  return new WebhookReceiver(new Webhook({ secret: SECRET, now: () => NOW_MS }), {
    now: () => NOW_MS,
    logger: quiet,
    tracerProvider: otel.provider,
  }).on('spv_request.completed', handler);
}

describe('webhook deliveries', () => {
  it('a verified delivery, its duplicate and a forged one: three CONSUMER spans that say which was which', async () => {
    let handlerSpan: string | undefined;
    const target = receiver(() => {
      handlerSpan = otel.provider.getTracer('partner-app').startSpan('partner.handler').spanContext().spanId;
    });
    const signed = await delivery(completedEvent, { id: 'msg_otel_1' });
    const forged = await delivery(completedEvent, { id: 'msg_otel_2', secret: OTHER_SECRET });
    const receipts = [
      await target.receive(signed.body, signed.headers),
      await target.receive(signed.body, signed.headers),
      await target.receive(forged.body, forged.headers),
    ];
    expect(receipts.map((receipt) => receipt.outcome)).toEqual(['handled', 'duplicate', 'rejected']);
    expect(handlerSpan).toBeDefined();

    const [handled, duplicate, refused] = otel.named('webhooks.receive', SpanKind.CONSUMER);
    expect(handled?.attributes).toEqual({
      'messaging.operation.type': 'process',
      'messaging.message.id': 'msg_otel_1',
      'partner_equity.webhook.verification': 'verified',
      'partner_equity.webhook.event_type': 'spv_request.completed',
      'partner_equity.webhook.duplicate': 'new',
      'partner_equity.webhook.handler.outcome': 'ok',
      'partner_equity.webhook.handler.duration_ms': expect.any(Number),
      'partner_equity.webhook.outcome': 'handled',
      'http.response.status_code': 204,
    });
    // Rounded to tenths of a millisecond, as a reader of the trace takes it.
    expect(String(handled?.attributes['partner_equity.webhook.handler.duration_ms'])).toMatch(/^\d+(\.\d)?$/);
    expect(handled?.status.code).toBe(SpanStatusCode.UNSET);
    expect(duplicate?.attributes).toEqual({
      'messaging.operation.type': 'process',
      'messaging.message.id': 'msg_otel_1',
      'partner_equity.webhook.verification': 'verified',
      'partner_equity.webhook.event_type': 'spv_request.completed',
      'partner_equity.webhook.duplicate': 'done',
      'partner_equity.webhook.outcome': 'duplicate',
      'http.response.status_code': 204,
    });
    expect(refused?.attributes).toEqual({
      'messaging.operation.type': 'process',
      'partner_equity.webhook.verification': 'no_matching_signature',
      'error.type': 'no_matching_signature',
      'partner_equity.webhook.outcome': 'rejected',
      'http.response.status_code': 400,
    });
    expect(refused?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Webhook refused: no_matching_signature',
    });
  });

  it("runs the handlers inside the delivery's span; a failing handler marks it failed with its class only", async () => {
    let parent: string | undefined;
    const target = receiver(() => {
      const span = otel.provider.getTracer('partner-app').startSpan('partner.handler');
      span.end();
      parent = span.spanContext().spanId;
      throw new TypeError('cannot reach the ledger at postgres://app:hunter2@db');
    }).onError(() => {});
    const signed = await delivery(completedEvent, { id: 'msg_otel_3' });
    expect((await target.receive(signed.body, signed.headers)).outcome).toBe('failed');

    const [handlerSpan] = otel.named('partner.handler');
    const [failed] = otel.named('webhooks.receive');
    expect(parent).toBe(handlerSpan?.spanContext().spanId);
    expect(parentOf(handlerSpan!)).toBe(failed?.spanContext().spanId);
    expect(failed?.attributes).toMatchObject({
      'partner_equity.webhook.handler.outcome': 'error',
      'error.type': 'TypeError',
      'partner_equity.webhook.outcome': 'failed',
      'http.response.status_code': 500,
    });
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Webhook handler failed' });
    expect(exportedText(failed!)).not.toContain('hunter2');
  });

  it('marks a delivery failed when the id store is unavailable, and when verifying itself fails', async () => {
    const down = new WebhookReceiver(new Webhook({ secret: SECRET, now: () => NOW_MS }), {
      idStore: { claim: () => Promise.reject(new Error('redis down')), complete() {}, release() {} },
      logger: quiet,
      tracerProvider: otel.provider,
    });
    const signed = await delivery(completedEvent, { id: 'msg_otel_4' });
    expect((await down.receive(signed.body, signed.headers)).status).toBe(503);
    const broken = new WebhookReceiver(
      {
        toleranceSeconds: 300,
        verify: () => Promise.reject(new TypeError('crypto.subtle is not available')),
      },
      { idStore: false, logger: quiet, tracerProvider: otel.provider },
    );
    expect((await broken.receive(signed.body, signed.headers)).status).toBe(500);

    const [unavailable, failed] = otel.named('webhooks.receive', SpanKind.CONSUMER);
    expect(unavailable?.attributes).toMatchObject({
      'messaging.message.id': 'msg_otel_4',
      'partner_equity.webhook.outcome': 'unavailable',
      'http.response.status_code': 503,
      'error.type': 'id_store_unavailable',
    });
    expect(unavailable?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Webhook id store unavailable',
    });
    expect(failed?.attributes).toEqual({
      'messaging.operation.type': 'process',
      'partner_equity.webhook.verification': 'verification_failed',
      'error.type': 'verification_failed',
      'partner_equity.webhook.outcome': 'failed',
      'http.response.status_code': 500,
    });
    expect(failed?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Webhook refused: verification_failed',
    });
  });

  it("types a body outside the envelope as 'unrecognised', and times the handlers in tenths of a millisecond", async () => {
    // The clock the handlers' time is read from, moved by the handler itself: 12.34 ms of work.
    let clock = 1_000;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    try {
      const target = receiver().onAny(() => {
        clock += 12.34;
      });
      const signed = await delivery('not json', { id: 'msg_otel_5' });
      expect((await target.receive(signed.body, signed.headers)).outcome).toBe('handled');
    } finally {
      now.mockRestore();
    }
    const [handled] = otel.named('webhooks.receive', SpanKind.CONSUMER);
    expect(handled?.attributes).toMatchObject({
      'messaging.message.id': 'msg_otel_5',
      'partner_equity.webhook.event_type': 'unrecognised',
      'partner_equity.webhook.handler.outcome': 'ok',
      'partner_equity.webhook.handler.duration_ms': 12.3,
    });
  });
});
