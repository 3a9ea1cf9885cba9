// Partner Equity webhooks in an Express 5 app.
//
//   npm exec -- tsx examples/webhooks/express.ts   (runs the app against the fake API, which delivers real events)
//
// The one rule: verification needs the raw body, byte for byte. Mount the webhook route BEFORE
// `express.json()` (the handler then reads the stream itself), or give it `express.raw()`.
import type { AddressInfo } from 'node:net';
import { createNodeHandler, type WebhookReceiver } from '@partner-equity/sdk/webhooks';
import express from 'express';
import { isMain } from '../support/is-main.js';
import { runWithFake } from './run-with-fake.js';

export function createApp(receiver: WebhookReceiver): express.Express {
  const app = express();
  app.post('/webhooks/partner-equity', createNodeHandler(receiver));
  app.use(express.json()); // the rest of your API parses JSON as usual
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  return app;
}

if (isMain(import.meta.url)) {
  await runWithFake('express', async (receiver) => {
    const server = createApp(receiver).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/webhooks/partner-equity`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  });
}
