// Compile-time checks of the resources' public types, run by `npm run typecheck` (tsconfig includes test/):
// it fails if an expectation does not hold or an `@ts-expect-error` line compiles. Nothing here runs.
import { expectTypeOf } from 'vitest';
import type {
  APIPromise,
  ContractVersions,
  FundingReceiptUploadResult,
  InvestorBulkResult,
  InvestorInput,
  PagePromise,
  PartnerEquity,
  ShareClass,
  SpvRequest,
  SpvRequestListItem,
  SpvRequestPage,
  SpvRequestStatus,
  SubscriptionBulkResult,
  SubscriptionInput,
  UploadFile,
} from '../../src/index.js';
import type { SpvRequestEventData, WebhookShareClass } from '../../src/webhooks/index.js';

// Every method returns an APIPromise of the parsed resource; list a PagePromise.
export function returnTypes(client: PartnerEquity): void {
  expectTypeOf(client.spvRequests.get('s')).toEqualTypeOf<APIPromise<SpvRequest>>();
  expectTypeOf(client.spvRequests.list()).toEqualTypeOf<PagePromise<SpvRequestPage, SpvRequestListItem>>();
  expectTypeOf(client.investors.create([])).toEqualTypeOf<APIPromise<InvestorBulkResult>>();
  expectTypeOf(client.subscriptions.create('spv', [])).toEqualTypeOf<APIPromise<SubscriptionBulkResult>>();
  expectTypeOf(client.contracts.versions()).toEqualTypeOf<APIPromise<ContractVersions>>();
  expectTypeOf(
    client.subscriptions.uploadFundingReceipt('spv', 'per', {
      file: { path: 'r.pdf' },
      amount: '1.00',
      currency: 'EUR',
      wireReference: 'W',
    }),
  ).toEqualTypeOf<APIPromise<FundingReceiptUploadResult>>();
}

// Status values are the four known ones when sent, open when received.
export function statusTypes(client: PartnerEquity): void {
  expectTypeOf<NonNullable<Parameters<typeof client.spvRequests.list>[0]>['status']>().toEqualTypeOf<
    'pending-review' | 'approved' | 'rejected' | 'cancelled' | undefined
  >();
  expectTypeOf<'approved'>().toExtend<SpvRequestStatus>();
  expectTypeOf<'added-in-v1.0.1'>().toExtend<SpvRequestStatus>();
}

// Money is a decimal string, never a number; a wrong status, a plain string as a file and the like fail.
export function refusedAtCompileTime(client: PartnerEquity): void {
  expectTypeOf<SubscriptionInput['lumpSum']['value']>().toEqualTypeOf<string>();
  client.subscriptions.create('spv', [
    // @ts-expect-error a number as a money value does not compile
    { servicePersonId: 'per', shareClassSlug: 'a', lumpSum: { currency: 'EUR', value: 25_000 } },
  ]);
  client.subscriptions.uploadFundingReceipt('spv', 'per', {
    file: { path: 'r.pdf' },
    // @ts-expect-error nor as a receipt amount
    amount: 25_000,
    currency: 'EUR',
    wireReference: 'W',
  });
  // @ts-expect-error a status that is not one of the four does not compile
  client.spvRequests.list({ status: 'done' });
  // @ts-expect-error a plain string is not file content
  client.subscriptions.uploadSignedForm('spv', 'per', './form.pdf');
  // @ts-expect-error nor is a number
  const file: UploadFile = 42;
  // @ts-expect-error the signed form accepts only the four media types
  client.subscriptions.uploadSignedForm('spv', 'per', { path: 'f' }, { contentType: 'image/gif' });
  // @ts-expect-error a misspelt investor field does not compile (unknown fields pass at run time only)
  const row: InvestorInput = { partnerInvestorId: 'a', emial: 'a@b.co' };
  // @ts-expect-error an SPV request body names its template
  client.spvRequests.create({ attributes: {} });
  // @ts-expect-error a plain record is not a sample payload (it may lack templateId)
  client.spvRequests.create({} as Record<string, unknown>);
  void [file, row];
}

// No casts where the SDK hands you what the next call takes.
export async function noCasts(client: PartnerEquity): Promise<void> {
  const sample = await client.contracts.samples.get('2025-06', 'spv-standard-minimal');
  if (sample.payload) await client.spvRequests.create(sample.payload);

  const { results, succeeded, failed } = await client.investors.create([{ partnerInvestorId: 'a' }]);
  for (const row of results) {
    if (row.error) expectTypeOf(row.error.code).toEqualTypeOf<string>();
    else expectTypeOf(row.servicePersonId).toEqualTypeOf<string>();
  }
  expectTypeOf(succeeded[0]!.servicePersonId).toEqualTypeOf<string>();
  expectTypeOf(failed[0]!.error.retryable).toEqualTypeOf<boolean>();

  const subs = await client.subscriptions.create('spv', []);
  for (const row of subs.results) {
    if (row.error) expectTypeOf(row.error.retryable).toEqualTypeOf<boolean>();
    else expectTypeOf(row.subscriptionSlug).toEqualTypeOf<string>();
  }

  const { response } = await client.spvRequests.create({ templateId: 't' }).withResponse();
  expectTypeOf(response.replayed).toEqualTypeOf<boolean>();

  // Both uploads take the file the same way: inside an object with its options.
  const form = await client.subscriptions.uploadSignedForm('spv', 'per', {
    file: { path: 'f.pdf' },
    filename: 'f.pdf',
  });
  expectTypeOf(form.subscriptionFormUrl).toEqualTypeOf<string>();
  await client.subscriptions.uploadFundingReceipt('spv', 'per', {
    file: { path: 'r.pdf' },
    amount: '1.00',
    currency: 'EUR',
    wireReference: 'W',
  });
}

// The webhooks entry's event shapes are what the API's resources fit into (every field optional there).
export function webhookShapes(request: SpvRequest, shareClass: ShareClass): void {
  const data: SpvRequestEventData = request;
  const eventClass: WebhookShareClass = shareClass;
  void [data, eventClass];
}
