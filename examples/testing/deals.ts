// A partner's integration code under test (see deals.test.ts): submitting a deal as an SPV request, and
// recording the SPV when Partner Equity approves it.
import { deriveIdempotencyKey, type PartnerEquity } from '@partner-equity/sdk';
import { Webhook, WebhookReceiver } from '@partner-equity/sdk/webhooks';

/** A deal in the partner's own system. */
export interface Deal {
  id: string;
  name: string;
  currency: string;
  targetRaise: string;
  carryPercent: string;
  maxInvestors: number;
}

/** Submits a deal for review. Safe to run again after a crash: the same deal gives the same request. */
export function submitDeal(client: PartnerEquity, deal: Deal) {
  const { id, ...attributes } = deal;
  return client.spvRequests.create(
    { templateId: 'spv-club-deal', attributes },
    { idempotencyKey: deriveIdempotencyKey('deal', { dealId: id }) },
  );
}

/** Webhook handling: remembers each approved request's SPV (`spvsByRequest` stands in for a database). */
export function dealWebhooks(secret: string, spvsByRequest: Map<string, string>): WebhookReceiver {
  return new WebhookReceiver(new Webhook({ secret })).on('spv_request.completed', (event) => {
    // The spec promises no payload field: with a service that sends less, look the request up instead
    // (client.spvRequests.get(slug)). The fake sends the whole request.
    const { spvRequestSlug, materialisedRefs } = event.data;
    if (spvRequestSlug && materialisedRefs?.vehicleSlug)
      spvsByRequest.set(spvRequestSlug, materialisedRefs.vehicleSlug);
  });
}
