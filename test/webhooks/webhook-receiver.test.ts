import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  type KnownWebhookEvent,
  type RecognisedWebhookEvent,
  type UnknownWebhookEvent,
  type WebhookErrorContext,
  type WebhookIdStore,
  WebhookReceiver,
  type WebhookReceiverOptions,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { EVENTUALLY } from '../helpers/eventually.js';
import { completedEvent, delivery, NOW_MS, SECRET } from './fixtures.js';

const webhook = () => new Webhook({ secret: SECRET, now: () => NOW_MS });
const createdEvent = {
  type: 'spv_request.created',
  timestamp: '2025-06-15T14:00:00Z',
  data: {
    ...completedEvent.data,
    status: 'pending-review',
    approvedAt: undefined,
    materialisedRefs: undefined,
    feesAndCarry: undefined,
  },
};

describe('WebhookReceiver', () => {
  it('dispatches each event to its typed handlers, then onAny, and acknowledges with 204', async () => {
    const seen: string[] = [];
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS })
      .on('spv_request.completed', (event) => {
        expectTypeOf(event).toEqualTypeOf<KnownWebhookEvent<'spv_request.completed'>>();
        seen.push(`completed:${event.data.materialisedRefs?.vehicleSlug}`);
      })
      .on('spv_request.created', async (event) => {
        seen.push(`created:${event.data.templateId}`);
      })
      .on('spv.closed', (event) => {
        expectTypeOf(event).toEqualTypeOf<RecognisedWebhookEvent>();
        seen.push(`closed:${String(event.data['spvSlug'])}`);
      })
      .onAny((event) => {
        seen.push(`any:${event.type}:${event.known}`);
      });
    const a = await delivery(completedEvent, { id: 'msg_a' });
    const b = await delivery(createdEvent, { id: 'msg_b' });
    const c = await delivery(
      { type: 'spv.closed', timestamp: 'x', data: { spvSlug: 'spv_9' } },
      { id: 'msg_c' },
    );
    for (const { body, headers } of [a, b, c]) {
      await expect(receiver.receive(body, headers)).resolves.toMatchObject({
        status: 204,
        outcome: 'handled',
      });
    }
    expect(seen).toEqual([
      'completed:spv_alpha',
      'any:spv_request.completed:true',
      'created:tpl_equity_spv',
      'any:spv_request.created:true',
      'closed:spv_9',
      'any:spv.closed:false',
    ]);
  });

  it('hands a duplicate delivery to the handler once, even with a fresh timestamp and signature', async () => {
    const handled: string[] = [];
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS }).on(
      'spv_request.completed',
      (e) => {
        handled.push(e.webhookId);
      },
    );
    const first = await delivery(completedEvent, { id: 'msg_dup' });
    const retry = await delivery(completedEvent, { id: 'msg_dup', timestamp: NOW_MS / 1000 + 30 });
    await expect(receiver.receive(first.body, first.headers)).resolves.toMatchObject({ outcome: 'handled' });
    await expect(receiver.receive(retry.body, retry.headers)).resolves.toMatchObject({
      status: 204,
      outcome: 'duplicate',
    });
    await expect(receiver.receive(first.body, first.headers)).resolves.toMatchObject({
      outcome: 'duplicate',
    });
    expect(handled).toEqual(['msg_dup']);
  });

  it('answers 409 to a copy that arrives while the first is still being handled', async () => {
    let finish!: () => void;
    const calls = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS }).onAny(calls);
    const { body, headers } = await delivery();
    const first = receiver.receive(body, headers);
    await vi.waitFor(() => expect(calls).toHaveBeenCalledOnce(), EVENTUALLY);
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({
      status: 409,
      outcome: 'in_progress',
    });
    finish();
    await expect(first).resolves.toMatchObject({ status: 204, outcome: 'handled' });
    expect(calls).toHaveBeenCalledOnce();
  });

  it('answers 500 when a handler throws, reports it, and handles the retry', async () => {
    const errors: [unknown, WebhookErrorContext][] = [];
    let attempts = 0;
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS })
      .on('spv_request.completed', () => {
        attempts++;
        if (attempts === 1) throw new Error('database down');
      })
      .onError((error, context) => {
        errors.push([error, context]);
      });
    const { body, headers } = await delivery();
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({
      status: 500,
      body: 'Webhook handler failed',
    });
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({ status: 204, outcome: 'handled' });
    expect(attempts).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toMatchObject({ message: 'database down' });
    expect(errors[0]![1]).toMatchObject({ stage: 'handler', event: { webhookId: 'msg_1' } });
  });

  it('answers 400 with no detail to a forged delivery, telling only onError why', async () => {
    const errors: unknown[] = [];
    const handler = vi.fn();
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS }).onAny(handler).onError((e) => {
      errors.push(e);
    });
    const { body, headers } = await delivery();
    const receipt = await receiver.receive(body.replace('approved', 'rejected'), headers);
    expect(receipt).toEqual({ status: 400, body: 'Invalid webhook', outcome: 'rejected' });
    expect(handler).not.toHaveBeenCalled();
    expect(errors).toEqual([expect.any(WebhookVerificationError)]);
    expect(errors[0]).toMatchObject({ reason: 'no_matching_signature' });
  });

  it('logs developer mistakes, not forgeries, when no onError handler is set (to console by default)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS });
      const { body, headers } = await delivery();
      await receiver.receive(`${body} `, headers);
      expect(log).not.toHaveBeenCalled();
      await expect(receiver.receive(JSON.parse(body), headers)).resolves.toMatchObject({ status: 400 });
      expect(log).toHaveBeenCalledOnce();
      expect(String(log.mock.calls[0]![0])).toMatch(
        /^\[partner-equity webhooks\] verify failed: .*body-parsing middleware/,
      );
    } finally {
      log.mockRestore();
    }
  });

  it('uses a pluggable id store, answers 500 when it fails, and can run without one', async () => {
    const calls: string[] = [];
    const store: WebhookIdStore = {
      claim: async (id, ttl) => {
        calls.push(`claim ${id} ${ttl}`);
        return 'new' as const;
      },
      complete: async (id, ttl) => {
        calls.push(`complete ${id} ${ttl}`);
      },
      release: (id) => {
        calls.push(`release ${id}`);
      },
    };
    const { body, headers } = await delivery();
    const receiver = new WebhookReceiver(webhook(), { idStore: store, idTtlSeconds: 600 });
    await receiver.receive(body, headers);
    expect(calls).toEqual(['claim msg_1 600', 'complete msg_1 600']);

    const lines: string[] = [];
    const heard: WebhookErrorContext[] = [];
    const brokenHandler = vi.fn();
    const broken = new WebhookReceiver(webhook(), {
      idStore: { ...store, claim: () => Promise.reject(new Error('redis unreachable')) },
      logger: { warn: (line) => lines.push(line), error: (line) => lines.push(line) },
    })
      .onAny(brokenHandler)
      .onError((_error, context) => {
        heard.push(context);
      });
    // The sender retries a 503: nothing handled, nothing lost.
    await expect(broken.receive(body, headers)).resolves.toMatchObject({
      status: 503,
      body: 'Webhook id store unavailable',
      outcome: 'unavailable',
    });
    expect(brokenHandler).not.toHaveBeenCalled();
    expect(lines).toEqual([
      '[partner-equity webhooks] Webhook id store unavailable (redis unreachable); answering 503 so the sender retries.',
    ]);
    expect(heard).toMatchObject([{ stage: 'store', event: { webhookId: 'msg_1' } }]);

    const handled = vi.fn();
    const noStore = new WebhookReceiver(webhook(), { idStore: false }).onAny(handled);
    await noStore.receive(body, headers);
    await noStore.receive(body, headers);
    expect(handled).toHaveBeenCalledTimes(2);
  });

  it('takes options read from optional config, explicit undefined included (exactOptionalPropertyTypes)', async () => {
    const config: { store?: WebhookIdStore; ttl?: number } = {};
    const options: WebhookReceiverOptions = {
      idStore: config.store,
      idTtlSeconds: config.ttl,
      logger: undefined,
    };
    const receiver = new WebhookReceiver(
      new Webhook({ secret: SECRET, scheme: undefined, toleranceSeconds: undefined, now: () => NOW_MS }),
      { ...options, now: () => NOW_MS },
    );
    const { body, headers } = await delivery();
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({ outcome: 'handled' });
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({ outcome: 'duplicate' }); // default store
  });

  it('acknowledges handled work when only the store write after it fails, logging that the store is down', async () => {
    const lines: string[] = [];
    const logger = { warn: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
    const failing = (what: 'complete' | 'release'): WebhookIdStore => ({
      claim: () => 'new',
      complete: () => (what === 'complete' ? Promise.reject(new Error('redis timeout')) : undefined),
      release: () => Promise.reject(new Error('redis timeout')),
    });
    const { body, headers } = await delivery();
    const afterSuccess = new WebhookReceiver(webhook(), { idStore: failing('complete'), logger });
    await expect(afterSuccess.receive(body, headers)).resolves.toMatchObject({
      status: 204,
      outcome: 'handled',
    });
    const afterFailure = new WebhookReceiver(webhook(), { idStore: failing('release'), logger }).onAny(() => {
      throw new Error('handler down');
    });
    await expect(afterFailure.receive(body, headers)).resolves.toMatchObject({ status: 500 });
    expect(lines).toEqual([
      '[partner-equity webhooks] Webhook id store unavailable (redis timeout); acknowledged anyway: the handlers succeeded.',
      '[partner-equity webhooks] Webhook id store unavailable (redis timeout); the id stays claimed until its lease ends.',
      '[partner-equity webhooks] handler failed: handler down',
    ]);
  });

  it('refuses an id TTL shorter than the timestamp tolerance', () => {
    expect(() => new WebhookReceiver(webhook(), { idTtlSeconds: 299 })).toThrow(
      /at least the webhook tolerance/,
    );
    expect(() => new WebhookReceiver(webhook(), { idTtlSeconds: 300 })).not.toThrow();
  });

  it('types handler events by their type, with optional partnerInvestorId on uploads', () => {
    const receiver = new WebhookReceiver(webhook());
    receiver.on('funding_receipt.uploaded', (event) => {
      expectTypeOf(event.data.partnerInvestorId).toEqualTypeOf<string | undefined>();
      expectTypeOf(event.data.amount).toEqualTypeOf<string | null | undefined>();
    });
    receiver.onAny((event) => {
      if (!event.known && event.recognised) expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
      if (!event.recognised) expectTypeOf(event.json).toEqualTypeOf<unknown>();
    });
  });
});
