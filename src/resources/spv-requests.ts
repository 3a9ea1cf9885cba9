import { z } from 'zod';
import { ConflictError, InputValidationError } from '../core/errors/errors.js';
import { APIPromise } from '../core/request/api-promise.js';
import { PagePromise } from '../core/request/page-promise.js';
import type { RequestOptions } from '../core/request/request-options.js';
import type { Requester } from '../core/request/requester.js';
import type { ContractSamplePayload } from '../schemas/contracts.js';
import { PathParam } from '../schemas/request-params.js';
import {
  type SpvRequest,
  SpvRequestCreate,
  type SpvRequestListItem,
  SpvRequestListParams,
  type SpvRequestPage,
} from '../schemas/spv-requests.js';
import { type IdempotentRequestOptions, resolveIdempotencyKey } from './idempotent-request-options.js';
import { callOf, OPERATIONS } from './operations.js';
import { guarded, inputIssues, parseInput, requestOptions } from './parse-input.js';

const DEFAULT_PER_PAGE = 10;
const Slug = z.strictObject({ slug: PathParam });

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
    return guarded(() => {
      const { key, issues: keyIssues } = resolveIdempotencyKey(options);
      const { data, issues } = inputIssues(SpvRequestCreate, body);
      const all = [...issues, ...keyIssues];
      if (data === undefined || all.length > 0)
        throw new InputValidationError('spvRequests.create input', all);
      return this.#requester.request({
        ...callOf(OPERATIONS['spvRequests.create']),
        json: data,
        idempotencyKey: key,
        options: requestOptions(options),
      });
    });
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
    let query: SpvRequestListParams;
    let invalid: unknown;
    try {
      query = parseInput(SpvRequestListParams, params, 'spvRequests.list parameters');
    } catch (error) {
      query = {};
      invalid = error;
    }
    const perPage = query.perPage ?? DEFAULT_PER_PAGE;
    return new PagePromise({
      fetchPage: (page) =>
        invalid === undefined
          ? this.#requester.request({
              ...callOf(OPERATIONS['spvRequests.list']),
              query: { status: query.status, perPage, page },
              options: requestOptions(options),
            })
          : new APIPromise<SpvRequestPage>(Promise.reject(invalid)),
      items: (page) => page.documents,
      total: (page) => page.count,
      limit: (page) => page.limit,
      perPage,
      startPage: query.page ?? 1,
      signal: options?.signal,
      method: 'GET',
      path: '/v1/spv-requests',
    });
  }

  /** `GET /v1/spv-requests/{slug}` — one of your SPV requests (`NotFoundError` for anyone else's). */
  get(slug: string, options?: RequestOptions): APIPromise<SpvRequest> {
    return this.#bySlug('GET', slug, options);
  }

  /**
   * `DELETE /v1/spv-requests/{slug}` — cancels a request still `pending-review`; resolves with it
   * `cancelled`. A request already approved, rejected or cancelled gives a `ConflictError`. When a retried
   * attempt meets that 409 (an earlier attempt cancelled it and its answer was lost), the SDK reads the
   * request back and resolves with it if it is `cancelled`.
   */
  cancel(slug: string, options?: RequestOptions): APIPromise<SpvRequest> {
    const cancelled = this.#bySlug('DELETE', slug, options).withResponse();
    return new APIPromise(
      cancelled.catch(async (error: unknown) => {
        // A 409 on a retried DELETE: an earlier attempt may have cancelled the request and lost its response
        // (dropped connection, timeout). Read it back; cancelled means this call's goal holds.
        if (!(error instanceof ConflictError) || error.attempts < 2) throw error;
        const current = await this.#bySlug('GET', slug, options).withResponse();
        if (current.data.status !== 'cancelled') throw error;
        return current;
      }),
    );
  }

  #bySlug(
    method: 'GET' | 'DELETE',
    slug: string,
    options: RequestOptions | undefined,
  ): APIPromise<SpvRequest> {
    return guarded(() => {
      const args = parseInput(Slug, { slug }, `spvRequests.${method === 'GET' ? 'get' : 'cancel'} arguments`);
      const operation = OPERATIONS[method === 'GET' ? 'spvRequests.get' : 'spvRequests.cancel'];
      return this.#requester.request({
        ...callOf(operation, args),
        options: requestOptions(options),
      });
    });
  }
}
