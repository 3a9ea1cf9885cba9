// Partner Equity webhooks in a Fastify 5 app.
//
//   npm exec -- tsx examples/webhooks/fastify.ts   (runs the app against the fake API, which delivers real events)
//
// Fastify parses JSON bodies before handlers run. Inside an encapsulated plugin, replace the JSON parser
// with one that keeps the raw bytes, so only the webhook route sees them; then hand them to the receiver.

import type { WebhookReceiver } from '@partner-equity/sdk/webhooks';
import Fastify, { type FastifyInstance } from 'fastify';
import { isMain } from '../support/is-main.js';
import { runWithFake } from './run-with-fake.js';

export function createApp(receiver: WebhookReceiver): FastifyInstance {
  const app = Fastify();
  app.register(async (webhooks) => {
    webhooks.removeContentTypeParser('application/json');
    webhooks.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1_048_576 },
      (_req, body, done) => done(null, body),
    );
    webhooks.post('/webhooks/partner-equity', async (request, reply) => {
      // `receive` verifies, de-duplicates and dispatches; it answers 204, 400, 409 or 500 for the sender.
      const receipt = await receiver.receive(request.body as Buffer, request.headers);
      return reply
        .code(receipt.status)
        .type('text/plain')
        .send(receipt.status === 204 ? undefined : receipt.body);
    });
  });
  app.get('/health', async () => ({ ok: true })); // outside the plugin, JSON is parsed as usual
  return app;
}

if (isMain(import.meta.url)) {
  await runWithFake('fastify', async (receiver) => {
    const app = createApp(receiver);
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${origin}/webhooks/partner-equity`, close: () => app.close() };
  });
}
