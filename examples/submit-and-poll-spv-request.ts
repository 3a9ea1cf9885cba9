// Submit an SPV request and wait for the review. The request names a contract template; the API validates
// its attributes against it. An administrator then approves, rejects or cancels it: poll with `get()`
// (or, better in production, react to the `spv_request.completed` webhook; see examples/webhooks).
//
//   npm exec -- tsx examples/submit-and-poll-spv-request.ts
import {
  BadRequestError,
  deriveIdempotencyKey,
  type PartnerEquity,
  type SpvRequest,
} from '@partner-equity/sdk';
import { connect } from './support/connect.js';
import { dealRequest } from './support/deal.js';

/** Polls until the request leaves `pending-review`, waiting longer between reads, up to `timeoutMs`. */
async function waitForReview(client: PartnerEquity, slug: string, timeoutMs: number): Promise<SpvRequest> {
  const signal = AbortSignal.timeout(timeoutMs); // also aborts a read in flight
  for (let delay = 250; ; delay = Math.min(delay * 2, 30_000)) {
    const request = await client.spvRequests.get(slug, { signal });
    console.log(`  ${new Date().toISOString()}  ${request.status}`);
    if (request.status !== 'pending-review') return request;
    await new Promise((resolve) => setTimeout(resolve, delay));
    signal.throwIfAborted();
  }
}

async function main(): Promise<void> {
  const { client, fake, close } = await connect();
  try {
    // Your deal: its own id, and the SPV request body your system builds from it.
    const deal = { id: 'deal-2025-001', body: dealRequest('Deal 2025-001 SPV') };

    // A key derived from YOUR deal id: if this script crashes after sending and runs again (within the
    // API's 24 h retention), the API replays the first answer instead of creating a second request.
    const idempotencyKey = deriveIdempotencyKey('spv-request', { dealId: deal.id });
    let request: SpvRequest;
    try {
      request = await client.spvRequests.create(deal.body, { idempotencyKey });
    } catch (error) {
      if (error instanceof BadRequestError) {
        // The template refused the attributes: each problem names the attribute.
        for (const item of error.validationErrors)
          console.error(`${item.attribute}: ${item.code} ${item.message}`);
      }
      throw error;
    }
    console.log(`submitted ${request.spvRequestSlug} (${request.templateId}@${request.templateVersion})`);

    // Against the fake, play the reviewer: approve a moment later.
    if (fake) setTimeout(() => fake.admin.approveSpvRequest(request.spvRequestSlug), 600);

    const reviewed = await waitForReview(client, request.spvRequestSlug, 10 * 60_000);
    if (reviewed.status === 'approved') {
      console.log(`approved: SPV ${reviewed.materialisedRefs?.vehicleSlug}`);
      for (const shareClass of reviewed.feesAndCarry?.shareClasses ?? []) {
        console.log(
          `  share class ${shareClass.slug}: ${shareClass.managementFeePercent}% fee, ${shareClass.carryPercent}% carry`,
        );
      }
    } else {
      console.log(`${reviewed.status}: ${reviewed.rejectionReason ?? 'no reason given'}`);
    }

    // Running the same create again with the same key creates nothing new.
    const again = await client.spvRequests.create(deal.body, { idempotencyKey });
    console.log(
      `re-run with the same key → the same request: ${again.spvRequestSlug === request.spvRequestSlug}`,
    );
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
