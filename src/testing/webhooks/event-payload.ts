import type { WebhookEventType } from '../../schemas/events.js';

// The identifying fields a minimal payload keeps per event type. `partnerInvestorId` is kept only when
// present: the spec says it is omitted otherwise, so it never becomes null.
const MINIMAL_FIELDS: Readonly<Record<WebhookEventType, readonly string[]>> = {
  'spv_request.created': ['spvRequestSlug', 'status'],
  'spv_request.completed': ['spvRequestSlug', 'status'],
  'signed_subscription_form.uploaded': ['subscriptionSlug', 'spvSlug', 'personId', 'partnerSubscriptionId'],
  'funding_receipt.uploaded': ['subscriptionSlug', 'spvSlug', 'personId', 'partnerSubscriptionId'],
  'subscription.completed': ['subscriptionSlug', 'spvSlug', 'personId', 'status', 'partnerSubscriptionId'],
};

/**
 * An event's `data` as the fake sends it: the full resource, or (`minimal`) only its identifying fields,
 * each `null` when the resource has none, plus `partnerInvestorId` when present.
 */
export function eventPayload(type: WebhookEventType, data: object, payloads: 'full' | 'minimal'): object {
  if (payloads === 'full') return data;
  const full = data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of MINIMAL_FIELDS[type]) out[field] = full[field] ?? null;
  if (typeof full['partnerInvestorId'] === 'string') out['partnerInvestorId'] = full['partnerInvestorId'];
  return out;
}
