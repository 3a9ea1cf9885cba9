import type { BulkChunkReport } from '../core/bulk/bulk-run.js';
import { runBulk } from '../core/bulk/bulk-run.js';
import { InputValidationError } from '../core/errors/errors.js';
import { APIPromise } from '../core/request/api-promise.js';
import type { Requester } from '../core/request/requester.js';
import {
  type InvestorCreateResponse,
  type InvestorInput,
  type InvestorRowFailure,
  type InvestorRowResult,
  type InvestorRowSuccess,
  investorRowResult,
} from '../schemas/investors.js';
import {
  type BulkCreateOptions,
  BulkOptions,
  bulkFields,
  DEFAULT_CHUNK_SIZE,
  DEFAULT_CONCURRENCY,
  resultRows,
  splitResults,
} from './bulk-options.js';
import { resolveIdempotencyKey } from './idempotent-request-options.js';
import { checkInvestorRows, investorRowCheck } from './investor-rows.js';
import { callOf, OPERATIONS } from './operations.js';
import { guarded, inputIssues, requestOptions } from './parse-input.js';

/** Options of `client.investors.create()`. */
export type InvestorCreateOptions = BulkCreateOptions<InvestorInput, InvestorRowResult>;

/** The outcome of `client.investors.create()`: every row answered, in input order. */
export interface InvestorBulkResult {
  /** One result per input row, in input order. */
  results: InvestorRowResult[];
  /** Rows that have a `servicePersonId` (a new person, or the known one for a repeated `partnerInvestorId`). */
  succeeded: InvestorRowSuccess[];
  /** Every other row, with its `error` (refused client-side, refused by the API, or lost with its chunk). */
  failed: InvestorRowFailure[];
  /** The input rows whose failure may pass on another try, ready to send again. */
  retryable: InvestorInput[];
  /** One report per chunk request (keys, request ids, attempts, chunk-level errors). */
  chunks: BulkChunkReport[];
}

// A row succeeded when it names a person and carries no error (see `investorRowResult`).
function isSuccess(result: InvestorRowResult): result is InvestorRowSuccess {
  return result.error == null;
}

function investorKey(row: { partnerInvestorId: string }): string {
  return row.partnerInvestorId;
}

function investorFailure(row: InvestorInput, error: InvestorRowFailure['error']): InvestorRowFailure {
  return { partnerInvestorId: row.partnerInvestorId, status: 'failed', error };
}

function investorResultRows(body: InvestorCreateResponse): InvestorRowResult[] {
  return resultRows(body, investorRowResult);
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
   * Only `partnerInvestorId` is required; rows failing the formats the spec states on the fields present
   * (e-mail, real `YYYY-MM-DD` date, two-letter country code) or repeating a `partnerInvestorId` are not sent and come back failed like the API's row errors. Arrays
   * over `chunkSize` are sent `concurrency` chunks at a time, each with an idempotency key derived from
   * `idempotencyKey` and the chunk's rows. A chunk that fails as a whole (after retries) fails its rows
   * with `request_failed` (`retryable` when the failure was transient); a non-transient one also stops
   * later chunks, whose rows fail with `not_sent`. The call rejects only when nothing was answered at all,
   * when `signal` aborts, or for a malformed call (not an array, a row without `partnerInvestorId`).
   *
   * `withResponse()` gives the last chunk's response, with `attempts` summed over chunks and the call's
   * own `idempotencyKey` (status 0 when nothing was sent).
   */
  create(
    investors: InvestorInput[] | AsyncIterable<InvestorInput>,
    options?: InvestorCreateOptions,
  ): APIPromise<InvestorBulkResult> {
    return guarded(() => {
      checkInvestorRows(investors);
      const { key, issues: keyIssues } = resolveIdempotencyKey(options);
      const { data, issues } = inputIssues(BulkOptions, bulkFields(options));
      if (data === undefined || keyIssues.length > 0) {
        throw new InputValidationError('investors.create options', [...issues, ...keyIssues]);
      }
      const pipelineOptions = requestOptions(options);
      const chunkSize = data.chunkSize ?? DEFAULT_CHUNK_SIZE;
      const concurrency = data.concurrency ?? DEFAULT_CONCURRENCY;
      const stream = !Array.isArray(investors);
      const outcome = runBulk<InvestorInput, InvestorRowResult>({
        inputs: investors,
        check: investorRowCheck(stream ? chunkSize * (2 * concurrency + 1) : Number.POSITIVE_INFINITY),
        chunkSize,
        concurrency,
        baseKey: key,
        field: 'investors',
        requester: this.#requester,
        operation: 'investors.create',
        send: (rows, idempotencyKey, bodyJson) =>
          this.#requester.request({
            ...callOf(OPERATIONS['investors.create']),
            json: { investors: rows },
            jsonText: bodyJson,
            idempotencyKey,
            // Defensive: with responseValidation 'warn' or 'off' the body may not match; rows without a
            // result then fail as `missing_result` (retryable) instead of being lost.
            select: investorResultRows,
            options: pipelineOptions,
          }),
        keyOf: investorKey,
        resultKeyOf: investorKey,
        failure: investorFailure,
        succeeded: isSuccess,
        onProgress: data.onProgress,
        onChunk: options?.onChunk,
      }).then(({ rows, results, chunks, response }) => ({
        data: { results, ...splitResults(results, rows, isSuccess), chunks },
        response,
      }));
      return new APIPromise(outcome);
    });
  }
}
