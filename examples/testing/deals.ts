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
export function dealWebhooks(
  secret: string,
  client: PartnerEquity,
  spvsByRequest: Map<string, string>,
): WebhookReceiver {
  return new WebhookReceiver(new Webhook({ secret })).on('spv_request.completed', async (event) => {
    // The spec promises no payload field: use what the event carries, else read the request itself.
    const slug = event.data.spvRequestSlug;
    if (!slug) throw new Error('spv_request.completed without a request slug');
    const vehicleSlug =
      event.data.materialisedRefs?.vehicleSlug ??
      (await client.spvRequests.get(slug)).materialisedRefs?.vehicleSlug;
    if (vehicleSlug) spvsByRequest.set(slug, vehicleSlug);
  });
}
