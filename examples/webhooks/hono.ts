// Partner Equity webhooks in a Hono app (Node, Bun, Deno, Cloudflare Workers, Vercel Edge alike).
//
//   npm exec -- tsx examples/webhooks/hono.ts   (runs the app against the fake API, which delivers real events)
//
// Hono does not parse bodies by itself: hand the untouched `Request` to the SDK's fetch handler. Do not
// call `c.req.json()` / `c.req.text()` before it, or the body is gone.

import { createFetchHandler, type WebhookReceiver } from '@partner-equity/sdk/webhooks';
import { Hono } from 'hono';
import { isMain } from '../support/is-main.js';
import { serveFetch } from '../support/serve-fetch.js';
import { runWithFake } from './run-with-fake.js';

export function createApp(receiver: WebhookReceiver): Hono {
  const handle = createFetchHandler(receiver);
  const app = new Hono();
  app.post('/webhooks/partner-equity', (c) => handle(c.req.raw));
  app.get('/health', (c) => c.json({ ok: true }));
  return app;
}

if (isMain(import.meta.url)) {
  await runWithFake('hono', async (receiver) => {
    const app = createApp(receiver);
    // On Node, @hono/node-server does this; on Workers/Bun/Deno, export `app` (its `fetch`) instead.
    const served = await serveFetch((request) => Promise.resolve(app.fetch(request)));
    return { url: `${served.origin}/webhooks/partner-equity`, close: served.close };
  });
}
