import { ConflictError } from '../core/errors/errors.js';
import { APIPromise } from '../core/request/api-promise.js';
import type { PagePromise } from '../core/request/page-promise.js';
import type { IdempotentRequestOptions, RequestOptions } from '../core/request/request-options.js';
import type { Requester } from '../core/request/requester.js';
import type { ContractSamplePayload } from '../schemas/contracts.js';
import type {
  SpvRequest,
  SpvRequestCreate,
  SpvRequestListItem,
  SpvRequestListParams,
  SpvRequestPage,
} from '../schemas/spv-requests.js';
import { listPages } from './list-pages.js';
import { OPERATIONS } from './operations.js';

/**
 * Requests to create an SPV (`client.spvRequests`): submit, list, read and cancel. An administrator reviews
 * each request; approval materialises the SPV (`materialisedRefs.vehicleSlug` is the SPV's slug).
 *
 * @example
 * ```ts
 * const request = await client.spvRequests.create({ templateId: 'spv-standard', attributes });
 * for await (const pending of client.spvRequests.list({ status: 'pending-review' })) console.log(pending.spvRequestSlug);
 * await client.spvRequests.cancel(request.spvRequestSlug);
 * ```
 */
export class SpvRequests {
  readonly #requester: Requester;

  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * `POST /v1/spv-requests` — submits a request, validated by the API against its contract template
   * (`BadRequestError` with `validationErrors` when it does not match; `NotFoundError` for an unknown
   * template). Always sent with an `Idempotency-Key` (yours or a generated one), so it is retried safely.
   */
  create(
    body: SpvRequestCreate | ContractSamplePayload,
    options?: IdempotentRequestOptions,
  ): APIPromise<SpvRequest> {
    return this.#requester.call(OPERATIONS['spvRequests.create'], { body }, options);
  }

  /**
   * `GET /v1/spv-requests` — your SPV requests. `await` it for one page (`documents`,
   * `count`, `skip`, `limit`); `for await` it for every request across pages, fetched lazily.
   *
   * @example
   * ```ts
   * const page = await client.spvRequests.list({ perPage: 50, page: 2 });
   * for await (const request of client.spvRequests.list({ status: 'approved' })) console.log(request.spvRequestSlug);
   * ```
   */
  list(
    params: SpvRequestListParams = {},
    options?: RequestOptions,
  ): PagePromise<SpvRequestPage, SpvRequestListItem> {
    return listPages(this.#requester, OPERATIONS['spvRequests.list'], { query: params }, options);
  }

  /** `GET /v1/spv-requests/{slug}` — one of your SPV requests (`NotFoundError` for anyone else's). */
  get(slug: string, options?: RequestOptions): APIPromise<SpvRequest> {
    return this.#requester.call(OPERATIONS['spvRequests.get'], { params: { slug } }, options);
  }

  /**
   * `DELETE /v1/spv-requests/{slug}` — cancels a request still `pending-review`; resolves with it
   * `cancelled`. A request already approved, rejected or cancelled gives a `ConflictError`. When a retried
   * attempt meets that 409 (an earlier attempt cancelled it and its answer was lost), the SDK reads the
   * request back and resolves with it if it is `cancelled`.
   */
  cancel(slug: string, options?: RequestOptions): APIPromise<SpvRequest> {
    const cancelled = this.#requester.call(OPERATIONS['spvRequests.cancel'], { params: { slug } }, options);
    return new APIPromise(
      cancelled.withResponse().catch(async (error: unknown) => {
        // A 409 on a retried DELETE: an earlier attempt may have cancelled the request and lost its response
        // (dropped connection, timeout). Read it back; cancelled means this call's goal holds.
        if (!(error instanceof ConflictError) || error.attempts < 2) throw error;
        const current = await this.get(slug, options).withResponse();
        if (current.data.status !== 'cancelled') throw error;
        return current;
      }),
    );
  }
}
