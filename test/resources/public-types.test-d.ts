// Compile-time checks of the resources' public types, run by `npm run typecheck` (tsconfig includes test/):
// it fails if an expectation does not hold or an `@ts-expect-error` line compiles. Nothing here runs.
import { expectTypeOf } from 'vitest';
import type {
  APIPromise,
  FundingReceiptUploadResult,
  InvestorBulkResult,
  InvestorInput,
  PagePromise,
  PartnerEquity,
  SpvRequest,
  SpvRequestPage,
  SpvRequestStatus,
  SubscriptionCreateResponse,
  SubscriptionInput,
  UploadFile,
} from '../../src/index.js';

// Every method returns an APIPromise of the parsed resource; list a PagePromise.
export function returnTypes(client: PartnerEquity): void {
  expectTypeOf(client.spvRequests.get('s')).toEqualTypeOf<APIPromise<SpvRequest>>();
  expectTypeOf(client.spvRequests.list()).toEqualTypeOf<PagePromise<SpvRequestPage, SpvRequest>>();
  expectTypeOf(client.investors.create([])).toEqualTypeOf<APIPromise<InvestorBulkResult>>();
  expectTypeOf(client.subscriptions.create('spv', [])).toEqualTypeOf<
    APIPromise<SubscriptionCreateResponse>
  >();
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
  // @ts-expect-error investor rows have their documented fields
  const row: InvestorInput = { partnerInvestorId: 'a', email: 'a@b.co' };
  void [file, row];
}
