// One CONSUMER span per webhook delivery: verification outcome, event type, the duplicate verdict, and the
// handlers' duration and outcome.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
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
});
