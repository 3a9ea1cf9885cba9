// What your app does with Partner Equity's events, whatever the web framework: one WebhookReceiver that
// verifies every delivery (signature, timestamp), drops duplicates by webhook-id and calls typed handlers.
// The framework files (express.ts, fastify.ts, hono.ts, nextjs/) only connect it to a route.
import { Webhook, WebhookReceiver } from '@partner-equity/sdk/webhooks';

/** Builds the receiver; `log` stands in for your own handling (database writes, queue messages…). */
export function createReceiver(secret: string, log: (line: string) => void = console.log): WebhookReceiver {
  return (
    new WebhookReceiver(new Webhook({ secret }))
      .on('spv_request.created', (event) => {
        log(`spv_request.created: ${event.data.spvRequestSlug} is ${event.data.status}`);
      })
      .on('spv_request.completed', (event) => {
        // Approved: the SPV exists and takes subscriptions under this slug.
        log(
          `spv_request.completed: ${event.data.spvRequestSlug} → SPV ${event.data.materialisedRefs?.vehicleSlug ?? '(not in the event)'}`,
        );
      })
      .on('funding_receipt.uploaded', (event) => {
        log(
          `funding_receipt.uploaded: ${event.data.amount} ${event.data.currency} for ${event.data.subscriptionSlug}`,
        );
      })
      // Types added to the API after this SDK version, and bodies in another shape, still arrive: keep them.
      .onAny((event) => {
        if (!event.recognised) log(`unrecognised body: ${event.problem} (webhook-id ${event.webhookId})`);
        else if (!event.known) log(`unknown event type ${event.type} (webhook-id ${event.webhookId})`);
      })
      // Refusals answer 400 without saying why; the reason is for your logs only.
      .onError((error, { stage }) => {
        log(`refused at ${stage}: ${error instanceof Error ? error.message : String(error)}`);
      })
  );
}
