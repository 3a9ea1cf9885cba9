// The adapters inside real frameworks, as partners mount them: Express 5 over a real socket, Hono through
// its fetch interface, Fastify with a raw-body content-type parser and WebhookReceiver#receive.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFetchHandler,
  createNodeHandler,
  type WebhookEvent,
  WebhookReceiver,
} from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { completedEvent, delivery, SECRET } from './fixtures.js';

let server: Server | undefined;
afterEach(async () => {
  const current = server;
  server = undefined;
  if (!current) return;
  current.closeAllConnections();
  await new Promise((resolve) => current.close(resolve));
});

function setup() {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  const receiver = new WebhookReceiver(new Webhook({ secret: SECRET }))
    .onAny((event) => {
      events.push(event);
    })
    .onError((error) => {
      errors.push(error);
    });
  return { receiver, events, errors };
}

const signedNow = () => delivery(completedEvent, { timestamp: Math.floor(Date.now() / 1000) });

async function serve(app: express.Express): Promise<string> {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('Express 5', () => {
  it('works mounted before express.json(), and after express.raw() on its route', async () => {
    const { receiver, events } = setup();
    const app = express();
    app.post('/webhooks', createNodeHandler(receiver));
    app.post('/raw-webhooks', express.raw({ type: 'application/json' }), createNodeHandler(receiver));
    app.use(express.json());
    const base = await serve(app);
    const a = await signedNow();
    const headers = { ...a.headers, 'content-type': 'application/json' };
    expect((await fetch(`${base}/webhooks`, { method: 'POST', headers, body: a.body })).status).toBe(204);
    const b = await delivery(completedEvent, { id: 'msg_2', timestamp: Math.floor(Date.now() / 1000) });
    const bHeaders = { ...b.headers, 'content-type': 'application/json' };
    expect(
      (await fetch(`${base}/raw-webhooks`, { method: 'POST', headers: bHeaders, body: b.body })).status,
    ).toBe(204);
    expect(events.map((event) => event.webhookId)).toEqual(['msg_1', 'msg_2']);
  });

  it('refuses the body express.json() parsed first, and onError explains the fix', async () => {
    const { receiver, events, errors } = setup();
    const app = express();
    app.use(express.json());
    app.post('/webhooks', createNodeHandler(receiver));
    const base = await serve(app);
    const { body, headers } = await signedNow();
    const response = await fetch(`${base}/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Invalid webhook');
    expect(events).toEqual([]);
    expect(errors).toMatchObject([
      { reason: 'body_not_raw', message: expect.stringMatching(/express\.raw/) },
    ]);
  });
});

describe('Hono', () => {
  it('serves createFetchHandler through c.req.raw', async () => {
    const { receiver, events } = setup();
    const handler = createFetchHandler(receiver);
    const app = new Hono().post('/webhooks', (c) => handler(c.req.raw));
    const { body, headers } = await signedNow();
    const response = await app.request('/webhooks', { method: 'POST', headers, body });
    expect(response.status).toBe(204);
    const forged = await app.request('/webhooks', { method: 'POST', headers, body: `${body}\n` });
    expect(forged.status).toBe(400);
    expect(events).toHaveLength(1);
  });
});

describe('Fastify', () => {
  it('verifies the Buffer a raw content-type parser keeps, via receiver.receive', async () => {
    const { receiver, events } = setup();
    const app = Fastify();
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, raw, done) => done(null, raw));
    app.post('/webhooks', async (request, reply) => {
      const receipt = await receiver.receive(request.body as Buffer, request.headers);
      return reply.code(receipt.status).send(receipt.body || undefined);
    });
    const { body, headers } = await signedNow();
    const response = await app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: body,
    });
    expect(response.statusCode).toBe(204);
    expect(events).toMatchObject([{ type: 'spv_request.completed', webhookId: 'msg_1' }]);
    await app.close();
  });
});
