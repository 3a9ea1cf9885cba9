import { toValidationIssues } from '../core/errors/errors.js';
import type { APIPromise } from '../core/request/api-promise.js';
import type { IdempotentRequestOptions } from '../core/request/request-options.js';
import type { Requester } from '../core/request/requester.js';
import type { UploadFile } from '../core/uploads/file-source.js';
import { checkSubscriptionRow, subscriptionFailure } from '../schemas/investor-rows.js';
import type {
  SubscriptionInput,
  SubscriptionRowResult,
  SubscriptionRowSuccess,
} from '../schemas/subscriptions.js';
import type { FundingReceiptUploadResult, SignedFormUploadResult } from '../schemas/uploads.js';
import { type BulkCreateOptions, type BulkResult, sendBulk } from './bulk-options.js';
import { OPERATIONS } from './operations.js';
import {
  FundingReceiptOptions,
  type FundingReceiptUpload,
  isUploadObject,
  type SignedFormUpload,
  type SignedFormUploadOptions,
} from './upload-options.js';

/** Options of `client.subscriptions.create()`. */
export type SubscriptionCreateOptions = BulkCreateOptions<SubscriptionInput, SubscriptionRowResult>;

/** The outcome of `client.subscriptions.create()`: every row answered, in input order. */
export type SubscriptionBulkResult = BulkResult<
  SubscriptionInput,
  SubscriptionRowResult,
  SubscriptionRowSuccess
>;

/**
 * Subscriptions of investors in an approved SPV and their documents: `client.subscriptions`. The SPV's slug
 * is the approved request's `materialisedRefs.vehicleSlug`; share classes are in its `feesAndCarry`.
 *
 * @example
 * ```ts
 * const { results } = await client.subscriptions.create(spvSlug, [
 *   { servicePersonId, shareClassSlug: 'class-a', lumpSum: { currency: 'EUR', value: '25000.00' } },
 * ]);
 * await client.subscriptions.uploadSignedForm(spvSlug, servicePersonId, { path: './signed/alice.pdf' });
 * await client.subscriptions.uploadFundingReceipt(spvSlug, servicePersonId, {
 *   file: { path: './wires/alice.pdf' }, amount: '25000.00', currency: 'EUR', wireReference: 'WIRE-2024-0001',
 * });
 * ```
 */
export class Subscriptions {
  readonly #requester: Requester;

  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * `POST /v1/spvs/{spv_slug}/subscriptions`, chunked — subscribes investors to a share class with a lump
   * sum. An array is checked whole first (one `InputValidationError` naming each bad field; nothing is
   * sent); a stream's chunk with a bad row is not sent (that row fails with `invalid_field`, the others
   * `not_sent`). Chunks are keyed and sent as for `investors.create`, but the API takes or refuses a chunk
   * whole: a refused chunk fails its rows with `request_failed`. Results are in input order.
   *
   * @example
   * ```ts
   * const { succeeded, failed } = await client.subscriptions.create(spvSlug, rows, {
   *   idempotencyKey: `subscriptions-${batch.id}`,
   *   onProgress: ({ done, total }) => console.log(`${done}/${total}`),
   * });
   * ```
   */
  create(
    spvSlug: string,
    subscriptions: SubscriptionInput[] | AsyncIterable<SubscriptionInput>,
    options?: SubscriptionCreateOptions,
  ): APIPromise<SubscriptionBulkResult> {
    const stream = !Array.isArray(subscriptions) && Symbol.asyncIterator in Object(subscriptions);
    const empty = Array.isArray(subscriptions) && subscriptions.length === 0;
    return sendBulk<SubscriptionInput, SubscriptionRowResult, SubscriptionRowSuccess>(
      this.#requester,
      OPERATIONS['subscriptions.create'],
      {
        input: {
          params: { spvSlug },
          ...(stream ? {} : { body: { subscriptions } }),
          issues: empty ? [{ path: 'subscriptions', message: 'Expected at least one subscription' }] : [],
        },
        rows: subscriptions,
        check: () => checkSubscriptionRow,
        wholeChunks: true,
        keyOf: (row) => row.partnerSubscriptionId,
        resultKeyOf: (result) =>
          result.error === undefined ? (result.partnerSubscriptionId ?? undefined) : undefined,
        failure: subscriptionFailure,
        succeeded: (row): row is SubscriptionRowSuccess => row.error === undefined,
      },
      options,
    ) as APIPromise<SubscriptionBulkResult>;
  }

  /**
   * `POST /v1/spvs/{spv_slug}/subscription/{person_id}/forms` — uploads the investor's signed subscription
   * form. The file must be a PDF, JPEG, PNG or WEBP (judged by its first bytes, which set the
   * `Content-Type`) of at most `maxBytes`; anything else is refused before a request is made. Files on
   * disk stream; nothing is read whole into memory. Sent with an `Idempotency-Key` (yours or a generated
   * one) and retried like other writes: see `docs/bulk-and-uploads.md` (in the package). The file may also come as
   * `{ file, filename?, contentType?, maxBytes? }`, the shape `uploadFundingReceipt` takes.
   */
  uploadSignedForm(
    spvSlug: string,
    personId: string,
    upload: UploadFile | SignedFormUpload,
    options?: SignedFormUploadOptions,
  ): APIPromise<SignedFormUploadResult> {
    const { file, ...inline } = isUploadObject(upload) ? upload : { file: upload };
    return this.#requester.call(
      OPERATIONS['subscriptions.uploadSignedForm'],
      {
        params: { spvSlug, personId },
        body: {},
        file: { file, rules: { trustDeclaredType: false, defaultName: 'signed-form' } },
      },
      (isUploadObject(upload) ? { ...inline, ...options } : options) as SignedFormUploadOptions | undefined,
    );
  }

  /**
   * `POST /v1/spvs/{spv_slug}/subscription/{person_id}/fundings` — uploads the wire receipt with its
   * `amount`, `currency` and `wireReference`. Only after the signed form is on record (else
   * `ConflictError`). File rules as for the form, except that `contentType` may send another type.
   * Keyed and retried like the form.
   */
  uploadFundingReceipt(
    spvSlug: string,
    personId: string,
    receipt: FundingReceiptUpload,
    options?: IdempotentRequestOptions,
  ): APIPromise<FundingReceiptUploadResult> {
    const own = FundingReceiptOptions.safeParse(receipt);
    const { file, amount, currency, wireReference, ...rules } = own.data ?? { file: receipt?.file };
    return this.#requester.call(
      OPERATIONS['subscriptions.uploadFundingReceipt'],
      {
        params: { spvSlug, personId },
        body: { amount: receipt?.amount, currency: receipt?.currency, wireReference: receipt?.wireReference },
        file: { file, rules: { ...rules, trustDeclaredType: true, defaultName: 'funding-receipt' } },
        issues: own.success ? [] : toValidationIssues(own.error.issues),
      },
      options,
    );
  }
}
