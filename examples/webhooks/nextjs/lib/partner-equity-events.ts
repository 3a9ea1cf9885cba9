// Stands in for what your Next.js app does with an event: write it to your database, enqueue a job…
import type { WebhookEvent } from '@partner-equity/sdk/webhooks';

/** Events handled so far, newest last (an in-memory stand-in for your store). */
export const handledEvents: WebhookEvent[] = [];

export async function handlePartnerEquityEvent(event: WebhookEvent): Promise<void> {
  handledEvents.push(event);
  if (event.known && event.type === 'spv_request.completed') {
    console.log(
      `[next.js] SPV ${event.data.materialisedRefs?.vehicleSlug ?? '(not in the event)'} approved (${event.data.spvRequestSlug})`,
    );
  } else {
    console.log(`[next.js] ${event.type} (webhook-id ${event.webhookId})`);
  }
}
