import { z } from 'zod';
import type { BulkChunkReport } from '../core/bulk/bulk-run.js';
import { runBulk } from '../core/bulk/bulk-run.js';
import { InputValidationError } from '../core/errors/errors.js';
import { APIPromise } from '../core/request/api-promise.js';
import type { Requester } from '../core/request/requester.js';
import type { UploadFile } from '../core/uploads/file-source.js';
import { sendUpload } from '../core/uploads/upload-request.js';
import { PathParam } from '../schemas/request-params.js';
import {
  SubscriptionInput,
  type SubscriptionRowFailure,
  type SubscriptionRowResult,
  type SubscriptionRowSuccess,
} from '../schemas/subscriptions.js';
import type { FundingReceiptUploadResult, SignedFormUploadResult } from '../schemas/uploads.js';
import {
  type BulkCreateOptions,
  BulkOptions,
  bulkFields,
  DEFAULT_CHUNK_SIZE,
  DEFAULT_CONCURRENCY,
  resultRows,
  splitResults,
} from './bulk-options.js';
import { type IdempotentRequestOptions, resolveIdempotencyKey } from './idempotent-request-options.js';
import { callOf, OPERATIONS } from './operations.js';
import { guarded, inputIssues, requestOptions } from './parse-input.js';
import {
  FundingReceiptInput,
  type FundingReceiptUpload,
  isUploadObject,
  MAX_UPLOAD_BYTES,
  SignedFormOptions,
  type SignedFormUpload,
  type SignedFormUploadOptions,
} from './upload-options.js';

const CreateArgs = z.strictObject({
  spvSlug: PathParam,
  subscriptions: z.array(SubscriptionInput).min(1, 'Expected at least one subscription'),
});
// A stream's rows are checked as they are read (checkSubscriptionRow).
const StreamArgs = z.strictObject({ spvSlug: PathParam, subscriptions: z.unknown() });

/** Options of `client.subscriptions.create()`. */
export type SubscriptionCreateOptions = BulkCreateOptions<SubscriptionInput, SubscriptionRowResult>;

/** The outcome of `client.subscriptions.create()`: every row answered, in input order. */
export interface SubscriptionBulkResult {
  /** One result per input row, in input order. */
  results: SubscriptionRowResult[];
  /** Rows the API subscribed. */
  succeeded: SubscriptionRowSuccess[];
  /** Rows of chunks that failed as a whole or were not sent, with their `error`. */
  failed: SubscriptionRowFailure[];
  /** The input rows whose failure may pass on another try, ready to send again. */
  retryable: SubscriptionInput[];
  /** One report per chunk request (keys, request ids, attempts, chunk-level errors). */
  chunks: BulkChunkReport[];
}

const isSubscribed = (row: SubscriptionRowResult): row is SubscriptionRowSuccess => row.error === undefined;

function subscriptionKey(row: SubscriptionInput): string | undefined {
  return row.partnerSubscriptionId;
}

function subscriptionResultKey(result: SubscriptionRowResult): string | undefined {
  return result.error === undefined ? (result.partnerSubscriptionId ?? undefined) : undefined;
}

function subscriptionFailure(
  row: SubscriptionInput,
  error: { code: string; message: string; retryable: boolean },
): SubscriptionRowResult {
  return {
    servicePersonId: row.servicePersonId,
    shareClassSlug: row.shareClassSlug,
    partnerSubscriptionId: row.partnerSubscriptionId,
    error,
  };
}

// A streamed row failing `SubscriptionInput` fails with `invalid_field`; its chunk is held back whole.
function checkSubscriptionRow(
  row: SubscriptionInput,
): { input: SubscriptionInput } | { result: SubscriptionRowResult } {
  const parsed = SubscriptionInput.safeParse(row);
  if (parsed.success) return { input: parsed.data as SubscriptionInput };
  const message = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  const error = { code: 'invalid_field', message, retryable: false };
  return { result: subscriptionFailure(isObject(row) ? row : ({} as SubscriptionInput), error) };
}

const isObject = (value: unknown): value is SubscriptionInput => typeof value === 'object' && value !== null;

function subscriptionResultRows(body: { results: SubscriptionRowSuccess[] }): SubscriptionRowSuccess[] {
  return resultRows(body) as SubscriptionRowSuccess[];
}
const PersonArgs = z.strictObject({ spvSlug: PathParam, personId: PathParam });

const FORM = OPERATIONS['subscriptions.uploadSignedForm'];
const RECEIPT = OPERATIONS['subscriptions.uploadFundingReceipt'];
const personParams = (args: { spvSlug: string; personId: string }) => ({
  spv_slug: args.spvSlug,
  person_id: args.personId,
});

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
   * sum. Every row is checked first (one `InputValidationError` naming each bad field; nothing is sent).
   * Arrays over `chunkSize` are sent `concurrency` chunks at a time, each with an idempotency key derived
   * from `idempotencyKey` and the chunk's rows, so a re-run with the same key creates nothing twice. The API
   * takes or refuses a chunk as a whole: a refused chunk (after retries) fails its rows with
   * `request_failed`, and a non-transient failure leaves later chunks `not_sent`. Results are in input order.
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
    return guarded(() => {
      const { key, issues: keyIssues } = resolveIdempotencyKey(options);
      const stream =
        typeof subscriptions === 'object' && subscriptions !== null && Symbol.asyncIterator in subscriptions;
      const { data, issues } = inputIssues(stream ? StreamArgs : CreateArgs, { spvSlug, subscriptions });
      const bulk = inputIssues(BulkOptions, bulkFields(options));
      const all = [...issues, ...bulk.issues, ...keyIssues];
      if (data === undefined || bulk.data === undefined || all.length > 0)
        throw new InputValidationError('subscriptions.create input', all);
      const call = callOf(OPERATIONS['subscriptions.create'], { spv_slug: data.spvSlug });
      const pipelineOptions = requestOptions(options);
      const outcome = runBulk<SubscriptionInput, SubscriptionRowResult>({
        inputs: subscriptions,
        check: checkSubscriptionRow,
        wholeChunks: true,
        chunkSize: bulk.data.chunkSize ?? DEFAULT_CHUNK_SIZE,
        concurrency: bulk.data.concurrency ?? DEFAULT_CONCURRENCY,
        baseKey: key,
        field: 'subscriptions',
        requester: this.#requester,
        operation: 'subscriptions.create',
        send: (rows, idempotencyKey, bodyJson) =>
          this.#requester.request({
            ...call,
            json: { subscriptions: rows },
            jsonText: bodyJson,
            idempotencyKey,
            select: subscriptionResultRows,
            options: pipelineOptions,
          }),
        keyOf: subscriptionKey,
        resultKeyOf: subscriptionResultKey,
        failure: subscriptionFailure,
        succeeded: isSubscribed,
        onProgress: bulk.data.onProgress,
        onChunk: options?.onChunk,
      }).then(({ rows, results, chunks, response }) => ({
        data: { results, ...splitResults(results, rows, isSubscribed), chunks },
        response,
      }));
      return new APIPromise(outcome);
    });
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
    // `{ file, filename?, contentType?, maxBytes? }` (the receipt's shape) or the file itself.
    const { file: given, ...inline } = isUploadObject(upload) ? upload : { file: upload };
    const file = given as UploadFile;
    if (isUploadObject(upload)) options = { ...inline, ...options } as SignedFormUploadOptions;
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
        path: args.data === undefined ? '' : callOf(FORM, personParams(args.data)).path,
        route: FORM.route,
        fields: {},
        response: FORM.response,
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
        path: args.data === undefined ? '' : callOf(RECEIPT, personParams(args.data)).path,
        route: RECEIPT.route,
        fields:
          fields === undefined
            ? {}
            : { amount: fields.amount, currency: fields.currency, wireReference: fields.wireReference },
        response: RECEIPT.response,
        idempotencyKey: key,
        options: requestOptions(options),
      }),
    );
  }
}
