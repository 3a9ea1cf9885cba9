import type { APIPromise } from '../core/request/api-promise.js';
import type { Requester } from '../core/request/requester.js';
import { checkInvestorRows, investorRowCheck } from '../schemas/investor-rows.js';
import type { InvestorInput, InvestorRowResult, InvestorRowSuccess } from '../schemas/investors.js';
import { type BulkCreateOptions, type BulkResult, sendBulk } from './bulk-options.js';
import { OPERATIONS } from './operations.js';

/** Options of `client.investors.create()`. */
export type InvestorCreateOptions = BulkCreateOptions<InvestorInput, InvestorRowResult>;

/** The outcome of `client.investors.create()`: every row answered, in input order. */
export type InvestorBulkResult = BulkResult<InvestorInput, InvestorRowResult, InvestorRowSuccess>;

const investorKey = (row: { partnerInvestorId: string }): string => row.partnerInvestorId;

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
   * Only `partnerInvestorId` is required; rows failing the formats the spec states (e-mail, `YYYY-MM-DD`
   * date, two-letter country code) or repeating a `partnerInvestorId` are not sent and fail like the API's
   * row errors. Chunks go `concurrency` at a time, each keyed from `idempotencyKey` and its rows. A chunk
   * failing as a whole (after retries) fails its rows with `request_failed` (`retryable` when transient); a
   * non-transient one also fails later chunks' rows with `not_sent` and is the result's `error`. The call
   * resolves with every row's result even when every chunk failed; it rejects only on `signal`, when the
   * stream or `onChunk` throws, or when malformed (not an array or `AsyncIterable`, a row without an id).
   * Send `result.retryable` again under a new key: the same key replays the first answers for 24 h.
   * `withResponse()` gives the last chunk's response, `attempts` summed, the call's `idempotencyKey`.
   */
  create(
    investors: InvestorInput[] | AsyncIterable<InvestorInput>,
    options?: InvestorCreateOptions,
  ): APIPromise<InvestorBulkResult> {
    return sendBulk<InvestorInput, InvestorRowResult, InvestorRowSuccess>(
      this.#requester,
      OPERATIONS['investors.create'],
      {
        input: { issues: checkInvestorRows(investors) },
        rows: investors,
        check: investorRowCheck,
        keyOf: investorKey,
        resultKeyOf: investorKey,
        failure: (row, error) => ({ partnerInvestorId: row.partnerInvestorId, status: 'failed', error }),
        succeeded: (result): result is InvestorRowSuccess => result.error == null,
      },
      options,
    ) as APIPromise<InvestorBulkResult>;
  }
}
