// The spec's Events section names five event types; the webhooks entry types their guessed payloads
// (src/webhooks/events.ts), and test/helpers/webhook-event-schemas.ts holds zod schemas of them for tests.

/** The five event types the spec names (it mentions nine; the other four are not shown). */
export const WEBHOOK_EVENT_TYPES = [
  'spv_request.created',
  'spv_request.completed',
  'signed_subscription_form.uploaded',
  'funding_receipt.uploaded',
  'subscription.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
