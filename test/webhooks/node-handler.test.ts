import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler, type WebhookEvent, WebhookReceiver } from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { completedEvent, delivery, SECRET } from './fixtures.js';

type Middleware = (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => Promise<void> | void;

let server: Server | undefined;
afterEach(async () => {
  const current = server;
  server = undefined;
  if (!current) return;
  current.closeAllConnections();
  await new Promise((resolve) => current.close(resolve));
});

/** A real loopback server on port 0 running `middlewares` in order, like an Express route. */
async function listen(...middlewares: Middleware[]): Promise<string> {
  server = createServer(async (req, res) => {
    for (const middleware of middlewares) await middleware(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

async function collect(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
// Stand-ins for express.raw() / express.json(): they consume the stream and leave req.body behind.
const rawParser: Middleware = async (req) => {
  req.body = await collect(req);
};
const jsonParser: Middleware = async (req) => {
  req.body = JSON.parse((await collect(req)).toString('utf8'));
};
// body-parser 1.x with a non-matching content type: sets req.body = {} and leaves the stream unread.
const untouchedParser: Middleware = (req) => {
  req.body = {};
};

function setup() {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  // Real time: the deliveries below are signed "now" and travel over a real socket.
  const receiver = new WebhookReceiver(new Webhook({ secret: SECRET }))
    .onAny((event) => {
      events.push(event);
    })
    .onError((error) => {
      errors.push(error);
    });
  return { receiver, events, errors };
}

const now = () => Math.floor(Date.now() / 1000);

describe('createNodeHandler over a real Node http server', () => {
  it('reads the raw body itself, acknowledges with 204 and hands a duplicate to the handler once', async () => {
    const { receiver, events } = setup();
    const url = await listen(createNodeHandler(receiver));
    const note = { ...completedEvent, data: { ...completedEvent.data, note: 'Zoë 🚀' } };
    const { body, headers } = await delivery(note, { timestamp: now(), id: 'msg_wire' });
    const first = await fetch(url, { method: 'POST', headers, body });
    expect(first.status).toBe(204);
    const again = await fetch(url, { method: 'POST', headers, body });
    expect(again.status).toBe(204);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ webhookId: 'msg_wire', data: { note: 'Zoë 🚀' } });
  });

  it('answers a forged delivery 400 with a body that reveals nothing', async () => {
    const { receiver, events, errors } = setup();
    const url = await listen(createNodeHandler(receiver));
    const { body, headers } = await delivery(completedEvent, { timestamp: now() });
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: body.replace('spv_alpha', 'spv_evil'),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Invalid webhook');
    expect(events).toEqual([]);
    expect(errors).toMatchObject([{ reason: 'no_matching_signature' }]);
  });

  it('uses the Buffer express.raw() left in req.body', async () => {
    const { receiver, events } = setup();
    const url = await listen(rawParser, createNodeHandler(receiver));
    const { body, headers } = await delivery(completedEvent, { timestamp: now() });
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
    expect(events).toHaveLength(1);
  });

  it('reads the stream when a body parser skipped the request and left req.body = {}', async () => {
    const { receiver, events } = setup();
    const url = await listen(untouchedParser, createNodeHandler(receiver));
    const { body, headers } = await delivery(completedEvent, { timestamp: now() });
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
    expect(events).toHaveLength(1);
  });

  it('refuses a body express.json() already parsed, and tells onError how to fix it', async () => {
    const { receiver, events, errors } = setup();
    const url = await listen(jsonParser, createNodeHandler(receiver));
    const { body, headers } = await delivery(completedEvent, { timestamp: now() });
    const response = await fetch(url, { method: 'POST', headers, body });
    expect(response.status).toBe(400);
    expect(events).toEqual([]);
    expect(errors).toMatchObject([
      { reason: 'body_not_raw', message: expect.stringMatching(/express\.raw/) },
    ]);
  });

  it('answers 405 to other methods and 413 to oversized bodies, declared or streamed', async () => {
    const { receiver, events } = setup();
    const url = await listen(createNodeHandler(receiver, { maxBodyBytes: 1024 }));
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const { headers } = await delivery(completedEvent, { timestamp: now() });
    const declared = await fetch(url, { method: 'POST', headers, body: 'x'.repeat(2048) });
    expect(declared.status).toBe(413);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(512).fill(120));
        controller.close();
      },
    });
    const streamed = await fetch(url, {
      method: 'POST',
      headers,
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(events).toEqual([]);
  });
});
