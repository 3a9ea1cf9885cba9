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
   * Only `partnerInvestorId` is required; rows failing the formats the spec states on the fields present
   * (e-mail, real `YYYY-MM-DD` date, two-letter country code) or repeating a `partnerInvestorId` are not sent and come back failed like the API's row errors. Arrays
   * over `chunkSize` are sent `concurrency` chunks at a time, each with an idempotency key derived from
   * `idempotencyKey` and the chunk's rows. A chunk that fails as a whole (after retries) fails its rows
   * with `request_failed` (`retryable` when the failure was transient); a non-transient one also stops
   * later chunks, whose rows fail with `not_sent`. The call rejects only when nothing was answered at all,
   * when `signal` aborts, or for a malformed call (neither an array nor an `AsyncIterable`, an array row without
   * `partnerInvestorId`).
   *
   * `withResponse()` gives the last chunk's response, with `attempts` summed over chunks and the call's
   * own `idempotencyKey` (status 0 when nothing was sent).
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
        rows: () => investors,
        check: investorRowCheck,
        keyOf: investorKey,
        resultKeyOf: investorKey,
        failure: (row, error) => ({ partnerInvestorId: row.partnerInvestorId, status: 'failed', error }),
        // A row succeeded when it names a person and carries no error (see `investorRowResult`).
        succeeded: (result): result is InvestorRowSuccess => result.error == null,
      },
      options,
    ) as APIPromise<InvestorBulkResult>;
  }
}
