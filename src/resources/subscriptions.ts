import { z } from 'zod';
import type { APIPromise } from '../core/api-promise.js';
import { InputValidationError } from '../core/errors.js';
import type { UploadFile } from '../core/file-source.js';
import type { Requester } from '../core/requester.js';
import { sendUpload } from '../core/upload-request.js';
import { PathParam } from '../schemas/request-params.js';
import {
  SubscriptionCreateBody,
  SubscriptionCreateResponse,
  type SubscriptionInput,
} from '../schemas/subscriptions.js';
import { FundingReceiptUploadResult, SignedFormUploadResult } from '../schemas/uploads.js';
import { type IdempotentRequestOptions, resolveIdempotencyKey } from './idempotent-request-options.js';
import { guarded, inputIssues, requestOptions } from './parse-input.js';
import {
  FundingReceiptInput,
  type FundingReceiptUpload,
  MAX_UPLOAD_BYTES,
  SignedFormOptions,
  type SignedFormUploadOptions,
} from './upload-options.js';

const CreateArgs = z.strictObject({
  spvSlug: PathParam,
  subscriptions: SubscriptionCreateBody.shape.subscriptions,
});
const PersonArgs = z.strictObject({ spvSlug: PathParam, personId: PathParam });

const documentPath = (spvSlug: string, personId: string, kind: 'forms' | 'fundings') =>
  `/v1/spvs/${encodeURIComponent(spvSlug)}/subscription/${encodeURIComponent(personId)}/${kind}`;

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
   * `POST /v1/spvs/{spv_slug}/subscriptions` — subscribes investors to a share class with a lump sum. All or
   * nothing: the API refuses the whole request (`BadRequestError`, `validationErrors` per row) when a row is
   * wrong. Always sent with an `Idempotency-Key` (yours or a generated one), so it is retried safely.
   */
  create(
    spvSlug: string,
    subscriptions: SubscriptionInput[],
    options?: IdempotentRequestOptions,
  ): APIPromise<SubscriptionCreateResponse> {
    return guarded(() => {
      const { key, issues: keyIssues } = resolveIdempotencyKey(options);
      const { data, issues } = inputIssues(CreateArgs, { spvSlug, subscriptions });
      const all = [...issues, ...keyIssues];
      if (data === undefined || all.length > 0)
        throw new InputValidationError('subscriptions.create input', all);
      return this.#requester.request({
        method: 'POST',
        path: `/v1/spvs/${encodeURIComponent(data.spvSlug)}/subscriptions`,
        json: { subscriptions: data.subscriptions },
        idempotencyKey: key,
        response: SubscriptionCreateResponse,
        options: requestOptions(options),
      });
    });
  }

  /**
   * `POST /v1/spvs/{spv_slug}/subscription/{person_id}/forms` — uploads the investor's signed subscription
   * form. The file must be a PDF, JPEG, PNG or WEBP (judged by its first bytes, which set the
   * `Content-Type`) of at most `maxBytes`; anything else is refused before a request is made. Files on
   * disk stream; nothing is read whole into memory. Sent with an `Idempotency-Key` (yours or a generated
   * one) and retried like other writes: see the README's "Uploads".
   */
  uploadSignedForm(
    spvSlug: string,
    personId: string,
    file: UploadFile,
    options?: SignedFormUploadOptions,
  ): APIPromise<SignedFormUploadResult> {
    const args = inputIssues(PersonArgs, { spvSlug, personId });
    const opts = inputIssues(SignedFormOptions, options ?? {});
    const { key, issues: keyIssues } = resolveIdempotencyKey(options);
    return guarded(() =>
      sendUpload(this.#requester, {
        subject: 'subscriptions.uploadSignedForm input',
        // A non-object options argument is reported as `options`, not as the unnamed root.
        issues: [
          ...args.issues,
          ...opts.issues.map((i) => (i.path === '' ? { ...i, path: 'options' } : i)),
          ...keyIssues,
        ],
        file,
        rules: {
          maxBytes: opts.data?.maxBytes ?? MAX_UPLOAD_BYTES,
          contentType: opts.data?.contentType,
          trustDeclaredType: false,
          filename: opts.data?.filename,
          defaultName: 'signed-form',
        },
        // Built from the checked arguments only: a non-string id must be reported, not thrown on here.
        path: args.data === undefined ? '' : documentPath(args.data.spvSlug, args.data.personId, 'forms'),
        fields: {},
        response: SignedFormUploadResult,
        idempotencyKey: key,
        options: requestOptions(options),
      }),
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
    const args = inputIssues(PersonArgs, { spvSlug, personId });
    const input = inputIssues(FundingReceiptInput, receipt);
    const fields = input.data;
    const { key, issues: keyIssues } = resolveIdempotencyKey(options);
    return guarded(() =>
      sendUpload(this.#requester, {
        subject: 'subscriptions.uploadFundingReceipt input',
        issues: [...args.issues, ...input.issues, ...keyIssues],
        file: (receipt as { file?: unknown } | undefined)?.file,
        rules: {
          maxBytes: fields?.maxBytes ?? MAX_UPLOAD_BYTES,
          contentType: fields?.contentType,
          trustDeclaredType: true,
          filename: fields?.filename,
          defaultName: 'funding-receipt',
        },
        // Built from the checked arguments only: a non-string id must be reported, not thrown on here.
        path: args.data === undefined ? '' : documentPath(args.data.spvSlug, args.data.personId, 'fundings'),
        fields:
          fields === undefined
            ? {}
            : { amount: fields.amount, currency: fields.currency, wireReference: fields.wireReference },
        response: FundingReceiptUploadResult,
        idempotencyKey: key,
        options: requestOptions(options),
      }),
    );
  }
}
