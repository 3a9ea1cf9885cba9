import { z } from 'zod';
import { APIPromise } from '../core/api-promise.js';
import { type BulkChunkReport, type BulkProgress, runBulk } from '../core/bulk-run.js';
import { InputValidationError } from '../core/errors.js';
import type { Requester } from '../core/requester.js';
import {
  InvestorCreateResponse,
  type InvestorInput,
  type InvestorResult,
  MAX_INVESTOR_ROWS,
} from '../schemas/investors.js';
import { type IdempotentRequestOptions, resolveIdempotencyKey } from './idempotent-request-options.js';
import { checkInvestorRows } from './investor-rows.js';
import { investorRowsJson } from './investor-rows-json.js';
import { guarded, inputIssues, requestOptions } from './parse-input.js';

/** @default 4 requests in flight */
const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 16;

/** Options of `client.investors.create()`. */
export interface InvestorCreateOptions extends IdempotentRequestOptions {
  /** Rows per request; larger arrays are split. @default 500 (the API's per-request row limit) */
  chunkSize?: number;
  /** Chunk requests in flight at once (1-16). @default 4 */
  concurrency?: number;
  /** Called after every chunk with the rows answered so far; the last call has `done === total`. */
  onProgress?: (progress: BulkProgress) => void;
}

/** The outcome of `client.investors.create()`: every row answered, in input order. */
export interface InvestorBulkResult {
  /** One result per input row, in input order. */
  results: InvestorResult[];
  /** Rows that have a `servicePersonId` (`created`, or `existing` for a known `partnerInvestorId`). */
  succeeded: InvestorResult[];
  /** Every other row, with its `error` (refused client-side, refused by the API, or lost with its chunk). */
  failed: InvestorResult[];
  /** The input rows whose failure may pass on another try, ready to send again. */
  retryable: InvestorInput[];
  /** One report per chunk request (keys, request ids, attempts, chunk-level errors). */
  chunks: BulkChunkReport[];
}

const Options = z.object({
  chunkSize: z.int().min(1).max(MAX_INVESTOR_ROWS).optional(),
  concurrency: z.int().min(1).max(MAX_CONCURRENCY).optional(),
  onProgress: z
    .custom<(progress: BulkProgress) => void>((value) => typeof value === 'function', 'Expected a function')
    .optional(),
});

// A row succeeded when it names a person and carries no error (`created`, `existing`, or a later status).
function isSuccess(result: InvestorResult): boolean {
  return result.servicePersonId !== undefined && result.error === undefined;
}

/**
 * Investor (person) records keyed by your own `partnerInvestorId`: `client.investors`.
 *
 * @example
 * ```ts
 * const result = await client.investors.create(rows, { idempotencyKey: 'import-2024-06-01' });
 * for (const row of result.failed) console.warn(row.partnerInvestorId, row.error?.code, row.error?.message);
 * ```
 */
export class Investors {
  readonly #requester: Requester;

  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * `POST /v1/investors`, chunked — creates investors with partial success: a bad row fails alone, in its
   * result, never the call. A `partnerInvestorId` the API already knows answers `existing` with the same
   * `servicePersonId`, so running the same import again creates nothing twice.
   *
   * Rows failing the SDK's checks (e-mail, real `YYYY-MM-DD` date, ISO country code, unknown fields,
   * a repeated `partnerInvestorId`) are not sent and come back failed like the API's row errors. Arrays
   * over `chunkSize` are sent `concurrency` chunks at a time, each with an idempotency key derived from
   * `idempotencyKey` and the chunk's rows. A chunk that fails as a whole (after retries) fails its rows
   * with `request_failed` (`retryable` when the failure was transient); a non-transient one also stops
   * later chunks, whose rows fail with `not_sent`. The call rejects only when nothing was answered at all,
   * when `signal` aborts, or for a malformed call (not an array, a row without `partnerInvestorId`).
   *
   * `withResponse()` gives the last chunk's response, with `attempts` summed over chunks and the call's
   * own `idempotencyKey` (status 0 when nothing was sent).
   */
  create(investors: InvestorInput[], options?: InvestorCreateOptions): APIPromise<InvestorBulkResult> {
    return guarded(() => {
      const checked = checkInvestorRows(investors);
      const { key, issues: keyIssues } = resolveIdempotencyKey(options);
      const { data, issues } = inputIssues(Options, {
        chunkSize: options?.chunkSize,
        concurrency: options?.concurrency,
        onProgress: options?.onProgress,
      });
      if (data === undefined || keyIssues.length > 0) {
        throw new InputValidationError('investors.create options', [...issues, ...keyIssues]);
      }
      const pipelineOptions = requestOptions(options);
      const outcome = runBulk({
        ...checked,
        chunkSize: data.chunkSize ?? MAX_INVESTOR_ROWS,
        concurrency: data.concurrency ?? DEFAULT_CONCURRENCY,
        baseKey: key,
        send: (rows, idempotencyKey) =>
          this.#requester.request({
            method: 'POST',
            path: '/v1/investors',
            json: { investors: rows },
            idempotencyKey,
            response: InvestorCreateResponse.transform((body) => body.results),
            options: pipelineOptions,
          }),
        stableJsonOf: investorRowsJson,
        keyOf: (row) => row.partnerInvestorId,
        resultKeyOf: (result) => result.partnerInvestorId,
        failure: (row, error) => ({ partnerInvestorId: row.partnerInvestorId, status: 'failed', error }),
        succeeded: isSuccess,
        onProgress: data.onProgress,
      }).then(({ results, chunks, response }) => ({
        data: {
          results,
          succeeded: results.filter(isSuccess),
          failed: results.filter((result) => !isSuccess(result)),
          retryable: checked.inputs.filter((_row, index) => results[index]?.error?.retryable === true),
          chunks,
        },
        response,
      }));
      return new APIPromise(outcome);
    });
  }
}
