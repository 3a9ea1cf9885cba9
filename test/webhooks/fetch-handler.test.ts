import { describe, expect, it } from 'vitest';
import { createFetchHandler, type WebhookEvent, WebhookReceiver } from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { completedEvent, delivery, NOW_MS, SECRET } from './fixtures.js';

const URL_ = 'https://partner.example/api/webhooks';

function setup(maxBodyBytes?: number) {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  const logs: string[] = [];
  const logger = { warn: (line: string) => logs.push(line), error: (line: string) => logs.push(line) };
  const receiver = new WebhookReceiver(new Webhook({ secret: SECRET, now: () => NOW_MS }), {
    now: () => NOW_MS,
    logger,
  })
    .onAny((event) => {
      events.push(event);
    })
    .onError((error) => {
      errors.push(error);
    });
  const handler = createFetchHandler(receiver, maxBodyBytes === undefined ? {} : { maxBodyBytes });
  return { handler, events, errors, logs };
}

describe('createFetchHandler with real fetch Request objects', () => {
  it('verifies a delivery, answers 204 and de-duplicates a second copy', async () => {
    const { handler, events } = setup();
    const { body, headers } = await delivery();
    const first = await handler(new Request(URL_, { method: 'POST', headers, body }));
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    const again = await handler(new Request(URL_, { method: 'POST', headers, body }));
    expect(again.status).toBe(204);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'spv_request.completed', webhookId: 'msg_1' });
  });

  it('answers 400 "Invalid webhook" to a stale forged delivery, telling the reason to onError only', async () => {
    const { handler, events, errors, logs } = setup();
    const { body, headers } = await delivery(completedEvent, { timestamp: NOW_MS / 1000 - 3600 });
    const forged = { ...headers, 'webhook-signature': `v1,${'A'.repeat(43)}=` };
    const response = await handler(new Request(URL_, { method: 'POST', headers: forged, body }));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Invalid webhook');
    expect(events).toEqual([]);
    expect(errors).toMatchObject([
      { reason: 'no_matching_signature', message: expect.stringMatching(/3600 s old/) },
    ]);
    expect(logs).toEqual([]); // forgeries are not logged
  });

  it('answers 400 with what to configure to an authentic delivery signed an hour ago', async () => {
    const { handler, events, errors, logs } = setup();
    const { body, headers } = await delivery(completedEvent, { timestamp: NOW_MS / 1000 - 3600 });
    const response = await handler(new Request(URL_, { method: 'POST', headers, body }));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(
      /^Webhook timestamp is 3600 s old, beyond the 300 s tolerance; its signature is valid.*toleranceSeconds to at least 52830/,
    );
    expect(events).toEqual([]);
    expect(errors).toMatchObject([
      { reason: 'timestamp_too_old', signatureMatched: true, skewSeconds: -3600 },
    ]);
    expect(logs).toEqual([
      expect.stringMatching(
        /^\[partner-equity webhooks\] Refused an authentic webhook \(timestamp_too_old\).*at least 52830/,
      ),
    ]);
  });

  it('reads a streamed body and refuses one over the limit with 413', async () => {
    const { handler, events } = setup(1024);
    const { body, headers } = await delivery();
    const stream = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(text);
          for (let i = 0; i < bytes.length; i += 100) controller.enqueue(bytes.slice(i, i + 100));
          controller.close();
        },
      });
    const streamed = (text: string) =>
      new Request(URL_, { method: 'POST', headers, body: stream(text), duplex: 'half' } as RequestInit);
    expect((await handler(streamed(body))).status).toBe(204);
    expect((await handler(streamed(body + ' '.repeat(2048)))).status).toBe(413);
    const declared = new Request(URL_, { method: 'POST', headers, body: 'x'.repeat(2048) });
    expect((await handler(declared)).status).toBe(413);
    expect(events).toHaveLength(1);
  });

  it('refuses a Request whose body middleware already read, telling onError about body parsers', async () => {
    const { handler, events, errors } = setup();
    const { body, headers } = await delivery();
    const request = new Request(URL_, { method: 'POST', headers, body });
    await request.json(); // what a JSON-parsing middleware does
    expect((await handler(request)).status).toBe(400);
    expect(events).toEqual([]);
    expect(errors).toMatchObject([
      { reason: 'body_not_raw', message: expect.stringMatching(/body-parsing/) },
    ]);
  });

  it('answers 405 to anything but POST, and 400 to a POST without a body', async () => {
    const { handler } = setup();
    const get = await handler(new Request(URL_));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const { headers } = await delivery();
    expect((await handler(new Request(URL_, { method: 'POST', headers }))).status).toBe(400);
  });
});
