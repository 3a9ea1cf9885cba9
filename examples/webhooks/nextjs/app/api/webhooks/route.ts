// app/api/webhooks/route.ts: Partner Equity webhooks as a Next.js App Router route handler (Node.js or
// Edge runtime alike). Route handlers receive the raw `Request`, so there is no body parser to turn off.
import { createFetchHandler, Webhook, WebhookReceiver } from '@partner-equity/sdk/webhooks';
import { handlePartnerEquityEvent } from '../../../lib/partner-equity-events.js';

let handler: ((request: Request) => Promise<Response>) | undefined;

// Built on first request, not at import: `next build` imports route modules without runtime secrets.
function webhookHandler(): (request: Request) => Promise<Response> {
  handler ??= createFetchHandler(
    new WebhookReceiver(new Webhook({ secret: process.env['PE_WEBHOOK_SECRET'] ?? '' })).onAny(
      handlePartnerEquityEvent,
    ),
  );
  return handler;
}

export async function POST(request: Request): Promise<Response> {
  return webhookHandler()(request);
}
