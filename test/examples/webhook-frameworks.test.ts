// The framework examples' routes, in process: a signed delivery reaches the handlers once, a tampered or
// duplicated one does not, and the rest of each app still parses JSON as usual.
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp as createExpressApp } from '../../examples/webhooks/express.js';
import { createApp as createFastifyApp } from '../../examples/webhooks/fastify.js';
import { createApp as createHonoApp } from '../../examples/webhooks/hono.js';
import { createReceiver } from '../../examples/webhooks/receiver.js';
import { completedEvent } from '../webhooks/fixtures.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const PATH = '/webhooks/partner-equity';
const payload = JSON.stringify(completedEvent);

/** A delivery as the service sends it; `tamper` changes the body after signing. */
function delivery(id: string, tamper = false) {
  const headers = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': new StandardWebhook(SECRET).sign(id, new Date(), payload),
  };
  return { headers, body: tamper ? payload.replace('spv_alpha', 'spv_omega') : payload };
}

type Send = (d: { headers: Record<string, string>; body: string }) => Promise<number>;

/** Runs the same checks against one framework's app, reached through `send`. */
async function expectWebhookRoute(send: Send, lines: string[]) {
  expect(await send(delivery('msg_1'))).toBe(204);
  expect(await send(delivery('msg_1'))).toBe(204); // a retry of the same message: acknowledged, not handled again
  expect(await send(delivery('msg_2', true))).toBe(400);
  const handled = lines.filter((line) => line.startsWith('spv_request.completed'));
  expect(handled).toEqual([
    `spv_request.completed: ${completedEvent.data.spvRequestSlug} → SPV ${completedEvent.data.materialisedRefs.vehicleSlug}`,
  ]);
  expect(lines.some((line) => line.startsWith('refused at verify'))).toBe(true);
}

describe('Express', () => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());

  it('verifies deliveries on the raw body while the rest of the app parses JSON', async () => {
    const lines: string[] = [];
    const server = createExpressApp(createReceiver(SECRET, (line) => lines.push(line))).listen(
      0,
      '127.0.0.1',
    );
    await new Promise((resolve) => server.once('listening', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expectWebhookRoute(
      async ({ headers, body }) =>
        (await fetch(`${origin}${PATH}`, { method: 'POST', headers, body })).status,
      lines,
    );
    expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true });
  });
});

describe('Fastify', () => {
  it('verifies deliveries on the raw body kept by its scoped parser', async () => {
    const lines: string[] = [];
    const app = createFastifyApp(createReceiver(SECRET, (line) => lines.push(line)));
    try {
      await expectWebhookRoute(
        async ({ headers, body }) =>
          (await app.inject({ method: 'POST', url: PATH, headers, payload: body })).statusCode,
        lines,
      );
      expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});

describe('Hono', () => {
  it('hands the untouched Request to the fetch handler', async () => {
    const lines: string[] = [];
    const app = createHonoApp(createReceiver(SECRET, (line) => lines.push(line)));
    await expectWebhookRoute(
      async ({ headers, body }) => (await app.request(PATH, { method: 'POST', headers, body })).status,
      lines,
    );
    expect((await app.request(PATH, { method: 'GET' })).status).toBe(404);
  });
});

describe('Next.js route handler', () => {
  it('answers real Request objects: 204 for a signed delivery, 400 for a tampered one', async () => {
    process.env['PE_WEBHOOK_SECRET'] = SECRET;
    const { POST } = await import('../../examples/webhooks/nextjs/app/api/webhooks/route.js');
    const { handledEvents } = await import('../../examples/webhooks/nextjs/lib/partner-equity-events.js');
    const url = 'http://localhost:3000/api/webhooks';
    const signed = delivery('msg_next');
    expect((await POST(new Request(url, { method: 'POST', ...signed }))).status).toBe(204);
    const tampered = delivery('msg_next_2', true);
    const refused = await POST(new Request(url, { method: 'POST', ...tampered }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe('Invalid webhook'); // no hint for a forger
    expect(handledEvents.map((event) => [event.type, event.webhookId])).toEqual([
      ['spv_request.completed', 'msg_next'],
    ]);
  });
});
