// The line an operator reads about an unexpected delivery says what its answer was (issue 47): a replica
// that answered 409 and ran nothing must not log that the event was "acknowledged and delivered".
import { describe, expect, it, vi } from 'vitest';
import {
  type WebhookIdStore,
  type WebhookLogger,
  type WebhookReceipt,
  WebhookReceiver,
} from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { EVENTUALLY } from '../helpers/eventually.js';
import { delivery, NOW_MS, SECRET } from './fixtures.js';

const UNKNOWN = { type: 'spv.closed', timestamp: '2025-06-15T14:00:00Z', data: { n: 1 } };
const HEAD =
  '[partner-equity webhooks] Verified webhook msg_1 has event type "spv.closed", unknown to this SDK version; ';
const DELIVERED = 'delivered to on("spv.closed") and onAny handlers as an unknown event';

function receiver(options: { idStore?: WebhookIdStore } = {}) {
  const lines: { level: string; message: string; fields: unknown }[] = [];
  const logger: WebhookLogger = {
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
  const webhook = new Webhook({ secret: SECRET, now: () => NOW_MS });
  return { lines, receiver: new WebhookReceiver(webhook, { now: () => NOW_MS, logger, ...options }) };
}

/** The warnings only, as an operator reads them, after each answer. */
const warnings = (lines: { level: string; message: string }[]) =>
  lines.filter((line) => line.level === 'warn').map((line) => line.message);

async function send(target: WebhookReceiver, body: unknown = UNKNOWN, id = 'msg_1'): Promise<WebhookReceipt> {
  const signed = await delivery(body, { id });
  return target.receive(signed.body, signed.headers);
}

describe('the line about an unexpected delivery matches the answer given', () => {
  it('handled: 204, and the line says where it was delivered', async () => {
    const { lines, receiver: r } = receiver();
    const seen: unknown[] = [];
    r.onAny((event) => {
      seen.push(event);
    });
    expect(await send(r)).toMatchObject({ status: 204, outcome: 'handled' });
    expect(seen).toHaveLength(1);
    expect(warnings(lines)).toEqual([`${HEAD}acknowledged (204) and ${DELIVERED}.`]);
    expect(lines[0]?.fields).toEqual({ webhookId: 'msg_1' });
  });

  it('handled with a handler of its type only: still delivered', async () => {
    const { lines, receiver: r } = receiver();
    const seen: unknown[] = [];
    r.on('spv.closed', (event) => {
      seen.push(event);
    });
    expect(await send(r)).toMatchObject({ status: 204, outcome: 'handled' });
    expect(seen).toHaveLength(1);
    expect(warnings(lines)).toEqual([`${HEAD}acknowledged (204) and ${DELIVERED}.`]);
  });

  it('handled by a handler of its type and an onAny one: delivered', async () => {
    const { lines, receiver: r } = receiver();
    const seen: string[] = [];
    r.on('spv.closed', () => {
      seen.push('typed');
    }).onAny(() => {
      seen.push('any');
    });
    expect(await send(r)).toMatchObject({ status: 204, outcome: 'handled' });
    expect(seen).toEqual(['typed', 'any']);
    expect(warnings(lines)).toEqual([`${HEAD}acknowledged (204) and ${DELIVERED}.`]);
  });

  it('handled with no handler at all: the line says none ran', async () => {
    const { lines, receiver: r } = receiver();
    r.on('spv_request.completed', () => undefined);
    expect(await send(r)).toMatchObject({ status: 204, outcome: 'handled' });
    expect(warnings(lines)).toEqual([`${HEAD}acknowledged (204); no handler is registered for it.`]);
  });

  it('a duplicate: 204 with no handler run, and the line says so', async () => {
    const store: WebhookIdStore = {
      claim: () => 'done',
      complete: () => undefined,
      release: () => undefined,
    };
    const { lines, receiver: r } = receiver({ idStore: store });
    const handler = vi.fn();
    r.onAny(handler);
    expect(await send(r)).toMatchObject({ status: 204, outcome: 'duplicate' });
    expect(handler).not.toHaveBeenCalled();
    expect(warnings(lines)).toEqual([
      `${HEAD}a duplicate of a delivery already handled: acknowledged (204), no handler run.`,
    ]);
    // Said once per kind: another unknown type gets its own line, the same type none.
    await send(r, { ...UNKNOWN, type: 'spv.opened' }, 'msg_2');
    await send(r, UNKNOWN, 'msg_3');
    expect(warnings(lines)).toEqual([
      `${HEAD}a duplicate of a delivery already handled: acknowledged (204), no handler run.`,
      '[partner-equity webhooks] Verified webhook msg_2 has event type "spv.opened", unknown to this SDK version; a duplicate of a delivery already handled: acknowledged (204), no handler run.',
    ]);
  });

  it('a claim in progress: 409 with no handler run, and the line says so; the run logs its own line', async () => {
    const { lines, receiver: r } = receiver();
    let finish!: () => void;
    const handler = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    r.onAny(handler);
    const first = send(r);
    await vi.waitFor(() => expect(handler).toHaveBeenCalledOnce(), EVENTUALLY);
    expect(await send(r)).toMatchObject({ status: 409, outcome: 'in_progress' });
    expect(handler).toHaveBeenCalledOnce();
    expect(warnings(lines)).toEqual([
      `${HEAD}already being handled: answered 409, no handler run (the sender retries).`,
    ]);
    finish();
    expect(await first).toMatchObject({ status: 204, outcome: 'handled' });
    expect(warnings(lines)).toEqual([
      `${HEAD}already being handled: answered 409, no handler run (the sender retries).`,
      `${HEAD}acknowledged (204) and ${DELIVERED}.`,
    ]);
    // Each said once: a later 409 and a later run of the same type add nothing.
    const again = send(r, UNKNOWN, 'msg_2');
    await vi.waitFor(() => expect(handler).toHaveBeenCalledTimes(2), EVENTUALLY);
    expect(await send(r, UNKNOWN, 'msg_2')).toMatchObject({ status: 409 });
    finish();
    await again;
    expect(warnings(lines)).toHaveLength(2);
  });

  it('a handler that fails: 500, and the line says it failed, not that it was acknowledged', async () => {
    const { lines, receiver: r } = receiver();
    r.onAny(() => {
      throw new Error('database down');
    });
    expect(await send(r)).toMatchObject({ status: 500, outcome: 'failed' });
    expect(warnings(lines)).toEqual([
      `${HEAD}${DELIVERED}; a handler failed: answered 500 (the sender retries).`,
    ]);
  });

  it('an id store that fails: 503 with no handler run, and the line says so', async () => {
    const store: WebhookIdStore = {
      claim: () => {
        throw new Error('connection refused');
      },
      complete: () => undefined,
      release: () => undefined,
    };
    const { lines, receiver: r } = receiver({ idStore: store });
    const handler = vi.fn();
    r.onAny(handler);
    expect(await send(r)).toMatchObject({ status: 503, outcome: 'unavailable' });
    expect(handler).not.toHaveBeenCalled();
    expect(warnings(lines)).toEqual([
      `${HEAD}the id store is unavailable: answered 503, no handler run (the sender retries).`,
    ]);
  });

  it('an envelope it does not recognise: the same rule, and the typed handlers are not counted', async () => {
    const { lines, receiver: r } = receiver();
    r.on('spv_request.completed', () => undefined);
    expect(await send(r, { event: 'x', payload: {} })).toMatchObject({ status: 204, outcome: 'handled' });
    expect(warnings(lines)).toEqual([
      '[partner-equity webhooks] Verified webhook msg_1 is not a { type, timestamp, data } envelope (the body has no string "type"); acknowledged (204); no handler is registered for it.',
    ]);
  });
});
