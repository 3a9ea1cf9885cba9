// A verified delivery is acknowledged whatever its body says (issue 13): each shape below is signed,
// POSTed over a real socket to the node adapter, reaches a handler and is answered 204; the unexpected
// ones are logged once per kind, with no onError handler set. Forged and stale ones reach no handler.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeHandler, type WebhookEvent, WebhookReceiver } from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { delivery, NOW_MS, NOW_S, OTHER_SECRET, SECRET } from './fixtures.js';

let server: Server;
let url: string;
let typed: WebhookEvent[];
let any: WebhookEvent[];
let warnings: string[];
let errors: string[];

beforeAll(async () => {
  const logger = {
    warn: (line: string) => warnings.push(line),
    error: (line: string) => errors.push(line),
  };
  const receiver = new WebhookReceiver(new Webhook({ secret: SECRET, now: () => NOW_MS }), {
    now: () => NOW_MS,
    logger,
  })
    .on('spv_request.completed', (event) => {
      typed.push(event);
    })
    .on('funding_receipt.uploaded', (event) => {
      typed.push(event);
    })
    .onAny((event) => {
      any.push(event);
    });
  server = createServer(createNodeHandler(receiver));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  typed = [];
  any = [];
  warnings = [];
  errors = [];
});

let sequence = 0;
async function post(body: unknown, options: { secret?: string; timestamp?: number } = {}) {
  sequence += 1;
  const signed = await delivery(body, { id: `msg_shape_${sequence}`, ...options });
  const response = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
  return { status: response.status, text: await response.text(), id: `msg_shape_${sequence}` };
}

describe('every verified delivery reaches a handler and is acknowledged', () => {
  it('minimal data and null fields: typed handler, 204, nothing logged', async () => {
    const minimal = { type: 'spv_request.completed', data: { spvRequestSlug: 'spvr_1', status: 'approved' } };
    const nulls = {
      type: 'funding_receipt.uploaded',
      timestamp: null,
      data: { subscriptionSlug: 'sub_1', amount: null, currency: null, spvSlug: null },
    };
    expect((await post(minimal)).status).toBe(204);
    expect((await post(nulls)).status).toBe(204);
    expect(typed).toMatchObject([
      { known: true, type: 'spv_request.completed', data: minimal.data },
      { known: true, type: 'funding_receipt.uploaded', timestamp: null, data: nulls.data },
    ]);
    expect(any).toHaveLength(2);
    expect(warnings).toEqual([]);
  });

  it('an unknown type: onAny, 204, one warning per type', async () => {
    for (const n of [1, 2]) {
      expect((await post({ type: 'spv.closed', data: { n } })).status).toBe(204);
    }
    expect((await post({ type: 'investor.updated', data: {} })).status).toBe(204);
    expect(typed).toEqual([]);
    expect(any).toMatchObject([
      { known: false, recognised: true, type: 'spv.closed', data: { n: 1 } },
      { type: 'spv.closed', data: { n: 2 } },
      { type: 'investor.updated' },
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(/^\[partner-equity webhooks\] .*event type "spv\.closed", unknown to this SDK/),
      expect.stringMatching(/event type "investor\.updated"/),
    ]);
  });

  it('a different envelope and non-JSON text: onAny with the text and JSON, 204, one warning each', async () => {
    const other = { event: 'spv_request.completed', payload: { spvRequestSlug: 'spvr_2' } };
    const first = await post(other);
    expect(first.status).toBe(204);
    expect((await post({ event: 'x', payload: {} })).status).toBe(204);
    const text = await post('spv_request.completed spvr_3');
    expect(text.status).toBe(204);
    expect(typed).toEqual([]);
    expect(any).toEqual([
      expect.objectContaining({
        recognised: false,
        webhookId: first.id,
        json: other,
        text: JSON.stringify(other),
        problem: 'the body has no string "type"',
      }),
      expect.objectContaining({ recognised: false, json: { event: 'x', payload: {} } }),
      expect.objectContaining({
        recognised: false,
        json: undefined,
        text: 'spv_request.completed spvr_3',
        problem: 'the body is not JSON',
      }),
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /is not a \{ type, timestamp, data \} envelope \(the body has no string "type"\)/,
      ),
      expect.stringMatching(/\(the body is not JSON\)/),
    ]);
  });

  it('a guessed field of another type: delivered as sent to the typed handler, one warning', async () => {
    const odd = { type: 'funding_receipt.uploaded', data: { amount: 25000, partnerInvestorId: 'inv-1' } };
    expect((await post(odd)).status).toBe(204);
    expect((await post(odd)).status).toBe(204);
    expect(typed).toMatchObject([{ data: { amount: 25000 } }, { data: { amount: 25000 } }]);
    expect(warnings).toEqual([expect.stringMatching(/data\.amount is a number, not a string/)]);
  });

  it('forged or stale: 400, no handler, nothing logged but the stale-yet-authentic advice', async () => {
    const event = { type: 'spv_request.completed', data: { spvRequestSlug: 'spvr_4' } };
    const forged = await post(event, { secret: OTHER_SECRET });
    expect(forged).toMatchObject({ status: 400, text: 'Invalid webhook' });
    const stale = await post(event, { timestamp: NOW_S - 301 });
    expect(stale.status).toBe(400);
    expect(stale.text).toMatch(/301 s old, beyond the 300 s tolerance; its signature is valid/);
    const forgedStale = await post(event, { secret: OTHER_SECRET, timestamp: NOW_S - 301 });
    expect(forgedStale).toMatchObject({ status: 400, text: 'Invalid webhook' });
    expect(typed).toEqual([]);
    expect(any).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/Refused an authentic webhook \(timestamp_too_old\)/)]);
    expect(errors).toEqual([]);
  });
});
