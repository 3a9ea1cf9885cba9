// What WebhookReceiver answers for each outcome, and what its operator sees: the log lines and their fields,
// what onError hears, and the default id store following the receiver's clock.
import { describe, expect, it, vi } from 'vitest';
import {
  DOCTOR_PROBE_EVENT_TYPE,
  type WebhookErrorContext,
  type WebhookIdStore,
  type WebhookLogger,
  WebhookReceiver,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { engineFor, useHmacEngine } from '../../src/webhooks/webhook-engines.js';
import { EVENTUALLY } from '../helpers/eventually.js';
import { completedEvent, delivery, NOW_MS, NOW_S, SECRET } from './fixtures.js';

const webhook = (now: () => number = () => NOW_MS) => new Webhook({ secret: SECRET, now });

/** A logger that keeps each line with its level and fields. */
function recordingLogger() {
  const lines: { level: 'warn' | 'error'; message: string; fields: Record<string, unknown> | undefined }[] =
    [];
  const logger: WebhookLogger = {
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
  return { lines, logger };
}

describe('WebhookReceiver answers', () => {
  it('answers 204 with an empty body to a handled delivery, its duplicate and the doctor probe', async () => {
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS, logger: recordingLogger().logger });
    const signed = await delivery(completedEvent, { id: 'msg_a' });
    const event = expect.objectContaining({ webhookId: 'msg_a', type: 'spv_request.completed' });
    expect(await receiver.receive(signed.body, signed.headers)).toEqual({
      status: 204,
      body: '',
      outcome: 'handled',
      event,
    });
    expect(await receiver.receive(signed.body, signed.headers)).toEqual({
      status: 204,
      body: '',
      outcome: 'duplicate',
      event,
    });
    const probe = await delivery(
      { type: DOCTOR_PROBE_EVENT_TYPE, timestamp: '2025-06-15T14:00:00Z', data: { probe: 'genuine' } },
      { id: 'msg_probe' },
    );
    expect(await receiver.receive(probe.body, probe.headers)).toEqual({
      status: 204,
      body: '',
      outcome: 'handled',
      event: expect.objectContaining({ webhookId: 'msg_probe', type: DOCTOR_PROBE_EVENT_TYPE }),
    });
  });

  it('answers 409 "Webhook already being processed" to a copy of a delivery still being handled', async () => {
    let finish!: () => void;
    const handler = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS }).onAny(handler);
    const { body, headers } = await delivery();
    const first = receiver.receive(body, headers);
    await vi.waitFor(() => expect(handler).toHaveBeenCalledOnce(), EVENTUALLY);
    expect(await receiver.receive(body, headers)).toEqual({
      status: 409,
      body: 'Webhook already being processed',
      outcome: 'in_progress',
      event: expect.objectContaining({ webhookId: 'msg_1' }),
    });
    finish();
    await expect(first).resolves.toMatchObject({ status: 204, outcome: 'handled' });
  });

  it('tells the sender why an authentic stale delivery is refused, and warns with its skew and the tolerance', async () => {
    const { lines, logger } = recordingLogger();
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS, logger });
    const stale = await delivery(completedEvent, { timestamp: NOW_S - 400 });
    const error = await webhook()
      .verify(stale.body, stale.headers)
      .catch((e: unknown) => e as WebhookVerificationError);
    expect(error).toMatchObject({ reason: 'timestamp_too_old' });
    const message = (error as WebhookVerificationError).message;
    expect(await receiver.receive(stale.body, stale.headers)).toEqual({
      status: 400,
      body: message,
      outcome: 'rejected',
    });
    expect(lines).toEqual([
      {
        level: 'warn',
        message: `[partner-equity webhooks] Refused an authentic webhook (timestamp_too_old): ${message}`,
        fields: { reason: 'timestamp_too_old', skewSeconds: -400, toleranceSeconds: 300 },
      },
    ]);
  });

  it('answers 500 when verifying fails with something other than a refusal, and reports it', async () => {
    const failure = new TypeError('crypto.subtle is not available');
    const verifier = { toleranceSeconds: 300, verify: () => Promise.reject(failure) };
    const { body, headers } = await delivery();
    const heard: [Error, WebhookErrorContext][] = [];
    const reported = new WebhookReceiver(verifier, { idStore: false }).onError((error, context) => {
      heard.push([error, context]);
    });
    expect(await reported.receive(body, headers)).toEqual({
      status: 500,
      body: 'Webhook verification failed',
      outcome: 'failed',
    });
    expect(heard).toEqual([[failure, { stage: 'verify' }]]);

    // Without onError it is a mistake to fix, so it is logged with what the operator needs.
    const { lines, logger } = recordingLogger();
    const logged = new WebhookReceiver(verifier, { idStore: false, logger });
    await expect(logged.receive(body, headers)).resolves.toMatchObject({ status: 500, outcome: 'failed' });
    expect(lines).toEqual([
      {
        level: 'error',
        message: '[partner-equity webhooks] verify failed: crypto.subtle is not available',
        fields: { stage: 'verify', webhookId: undefined, error: failure },
      },
    ]);
  });

  it("answers 500 when the secret's key cannot be imported, and verifies the retry once it can", async () => {
    // A runtime whose crypto fails for a moment: the failure is not remembered by the Webhook.
    const engine = engineFor(Webhook);
    let imports = 0;
    class Flaky extends Webhook {}
    useHmacEngine(Flaky, {
      ...engine,
      importKey: (bytes) => {
        imports += 1;
        return imports === 1 ? Promise.reject(new Error('crypto busy')) : engine.importKey(bytes);
      },
    });
    const handled = vi.fn();
    const receiver = new WebhookReceiver(new Flaky({ secret: SECRET, now: () => NOW_MS }), {
      now: () => NOW_MS,
      logger: recordingLogger().logger,
    }).onAny(handled);
    const { body, headers } = await delivery();
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({
      status: 500,
      body: 'Webhook verification failed',
    });
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({ status: 204, outcome: 'handled' });
    expect(handled).toHaveBeenCalledOnce();
  });

  it('logs a failed handler without onError whatever it threw, a WebhookVerificationError included', async () => {
    // A handler that verifies something of its own (a forwarded delivery, a nested signature) may throw one.
    const thrown = new WebhookVerificationError('no_matching_signature', 'forwarded delivery is forged');
    const { lines, logger } = recordingLogger();
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS, logger }).onAny(() => {
      throw thrown;
    });
    const { body, headers } = await delivery();
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({ status: 500, outcome: 'failed' });
    expect(lines).toEqual([
      {
        level: 'error',
        message: '[partner-equity webhooks] handler failed: forwarded delivery is forged',
        fields: { stage: 'handler', webhookId: 'msg_1', error: thrown },
      },
    ]);
  });

  it('without an id store, touches no store: nothing logged or reported about one, handled or failed', async () => {
    const { lines, logger } = recordingLogger();
    const stages: string[] = [];
    let fail = false;
    const receiver = new WebhookReceiver(webhook(), { idStore: false, logger })
      .onAny(() => {
        if (fail) throw new Error('handler down');
      })
      .onError((_error, { stage }) => {
        stages.push(stage);
      });
    const { body, headers } = await delivery();
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({ status: 204, outcome: 'handled' });
    fail = true;
    await expect(receiver.receive(body, headers)).resolves.toMatchObject({ status: 500, outcome: 'failed' });
    expect(stages).toEqual(['handler']);
    expect(lines).toEqual([]);
  });

  it("forgets a handled id after idTtlSeconds by the receiver's clock (the default store's)", async () => {
    let now = NOW_MS;
    const handled = vi.fn();
    const receiver = new WebhookReceiver(
      webhook(() => now),
      { now: () => now, idTtlSeconds: 300 },
    ).onAny(handled);
    const first = await delivery(completedEvent, { id: 'msg_ttl' });
    await expect(receiver.receive(first.body, first.headers)).resolves.toMatchObject({ outcome: 'handled' });
    now += 299_000;
    const retry = await delivery(completedEvent, { id: 'msg_ttl', timestamp: now / 1000 });
    await expect(receiver.receive(retry.body, retry.headers)).resolves.toMatchObject({
      outcome: 'duplicate',
    });
    now += 2_000;
    const late = await delivery(completedEvent, { id: 'msg_ttl', timestamp: now / 1000 });
    await expect(receiver.receive(late.body, late.headers)).resolves.toMatchObject({ outcome: 'handled' });
    expect(handled).toHaveBeenCalledTimes(2);
  });

  it('names the delivery in the lines about an unexpected event type and an unavailable id store', async () => {
    const { lines, logger } = recordingLogger();
    const store: WebhookIdStore = {
      claim: () => 'new',
      complete: () => Promise.reject(new Error('redis timeout')),
      release: () => {},
    };
    const receiver = new WebhookReceiver(webhook(), { idStore: store, logger });
    const unknown = await delivery(
      { type: 'spv.closed', timestamp: '2025-06-15T14:00:00Z', data: {} },
      { id: 'msg_unknown' },
    );
    await expect(receiver.receive(unknown.body, unknown.headers)).resolves.toMatchObject({ status: 204 });
    // The line about the event once its answer is known, so after the store's.
    expect(lines).toEqual([
      {
        level: 'error',
        message:
          '[partner-equity webhooks] Webhook id store unavailable (redis timeout); acknowledged anyway: the handlers succeeded.',
        fields: { webhookId: 'msg_unknown' },
      },
      {
        level: 'warn',
        message: expect.stringContaining('Verified webhook msg_unknown has event type "spv.closed"'),
        fields: { webhookId: 'msg_unknown' },
      },
    ]);
  });
});
