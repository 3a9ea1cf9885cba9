// The writing part of the tour, against the fake only: an SPV request through approval, investors,
// subscriptions and both documents, with every webhook verified by a local receiver.
import { deriveIdempotencyKey, type PartnerEquity } from '@partner-equity/sdk';
import type { FakePartnerEquity } from '@partner-equity/sdk/testing';
import { dealRequest } from '../support/deal.js';
import { tinyPdf } from '../support/tiny-pdf.js';
import type { WebhookInbox } from '../support/webhook-inbox.js';
import type { Report } from './report.js';

export async function partnerFlowSteps(
  client: PartnerEquity,
  fake: FakePartnerEquity,
  inbox: WebhookInbox,
  contractVersion: string,
  report: Report,
): Promise<void> {
  report.step('SPV request: created, listed, approved by the reviewer');
  const deal = { ...dealRequest(), templateVersion: contractVersion };
  // A key derived from the body: running this again within 24 h replays the first answer instead of
  // creating a second request (a random key is generated when you give none).
  const idempotencyKey = deriveIdempotencyKey('quickstart-spv-request', deal);
  const created = await client.spvRequests.create(deal, { idempotencyKey });
  report.line(
    `created ${created.spvRequestSlug}: ${created.status} (Idempotency-Key ${idempotencyKey.slice(0, 24)}…)`,
  );
  const pending = await client.spvRequests.list({ status: 'pending-review' });
  report.line(`listed pending-review: ${pending.documents.map((r) => r.spvRequestSlug).join(', ')}`);
  fake.admin.approveSpvRequest(created.spvRequestSlug);
  report.line("the fake's admin approved it (a reviewer's action, not a partner API call)");
  const completed = await inbox.next('spv_request.completed');
  report.line(`webhook ${completed.type} verified (webhook-id ${completed.webhookId})`);
  // The spec shows no webhook payload fields: read the approved request itself for what approval created.
  const approved = await client.spvRequests.get(created.spvRequestSlug);
  const spvSlug = approved.materialisedRefs?.vehicleSlug;
  if (spvSlug === undefined)
    throw new Error(`${created.spvRequestSlug} is ${approved.status}, not materialised`);
  report.line(`${approved.spvRequestSlug} is ${approved.status}: SPV ${spvSlug}`);
  const shareClasses = approved.feesAndCarry?.shareClasses ?? [];
  report.line(
    `share classes: ${shareClasses.map((c) => `${c.name} (${c.slug}, carry ${c.carryPercent}%)`).join(', ')}`,
  );

  report.step('Investors in bulk (partial success: a bad row fails alone)');
  const investors = await client.investors.create([
    investor('inv-001', 'ada@example.com', 'Ada', 'Lovelace', 'GB'),
    investor('inv-002', 'grace@example.com', 'Grace', 'Hopper', 'US'),
    investor('inv-003', 'not-an-email', 'Alan', 'Turing', 'GB'),
  ]);
  for (const row of investors.results) {
    report.line(
      row.error
        ? `${row.partnerInvestorId}: ${row.status}: ${row.error.code} on ${row.error.field}: ${row.error.message}`
        : `${row.partnerInvestorId}: ${row.status} → ${row.servicePersonId}`,
    );
  }

  report.step('Subscriptions');
  const shareClassSlug = shareClasses[0]?.slug ?? '';
  const { succeeded: results } = await client.subscriptions.create(
    spvSlug,
    investors.succeeded.map((row, index) => ({
      servicePersonId: row.servicePersonId,
      shareClassSlug,
      lumpSum: { currency: 'EUR', value: index === 0 ? '25000.00' : '50000.00' },
      partnerSubscriptionId: `sub-${row.partnerInvestorId}`,
    })),
  );
  for (const s of results)
    report.line(`${s.subscriptionSlug}: ${s.personId} ${JSON.stringify(s.lumpSum)} ${s.status}`);

  report.step('Documents: signed form, then funding receipt');
  const first = results[0]!;
  const form = await client.subscriptions.uploadSignedForm(spvSlug, first.personId, tinyPdf('Signed form'), {
    filename: 'signed-form.pdf',
  });
  report.line(`signed form uploaded at ${form.uploadedAt}: ${form.subscriptionFormUrl}`);
  const formEvent = await inbox.next('signed_subscription_form.uploaded');
  report.line(`webhook ${formEvent.type} verified (partnerInvestorId ${formEvent.data.partnerInvestorId})`);
  const receipt = await client.subscriptions.uploadFundingReceipt(spvSlug, first.personId, {
    file: tinyPdf('Wire receipt'),
    filename: 'wire-receipt.pdf',
    amount: '25000.00',
    currency: 'EUR',
    wireReference: 'WIRE-2025-0001',
  });
  report.line(`funding receipt uploaded: ${receipt.amount} ${receipt.currency}, ${receipt.wireReference}`);
  const receiptEvent = await inbox.next('funding_receipt.uploaded');
  report.line(`webhook ${receiptEvent.type} verified (webhook-id ${receiptEvent.webhookId})`);

  report.step('Completion');
  fake.admin.completeSubscription(first.subscriptionSlug);
  const done = await inbox.next('subscription.completed');
  report.line(`webhook ${done.type} verified: ${done.data.subscriptionSlug} ${done.data.status}`);
  report.line(
    `${inbox.events.length} webhooks received, every one verified: ${inbox.events.map((e) => e.type).join(', ')}`,
  );
}

function investor(
  partnerInvestorId: string,
  email: string,
  firstName: string,
  lastName: string,
  country: string,
) {
  return {
    partnerInvestorId,
    email,
    firstName,
    lastName,
    dateOfBirth: '1985-04-12',
    countryOfResidence: country,
  };
}
