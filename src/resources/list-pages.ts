import { PagePromise } from '../core/request/page-promise.js';
import type { RequestOptions } from '../core/request/request-options.js';
import type { Operation, OperationResult } from '../core/request/request-spec.js';
import type { Requester } from '../core/request/requester.js';

/** The spec's page size when a list call names none. */
const DEFAULT_PER_PAGE = 10;

/** A list entry of `OPERATIONS`: its query takes `perPage`/`page`, its page holds `documents` and `count`. */
type ListOperation = Operation & { method: 'GET'; query: NonNullable<Operation['query']> };
type Page = { documents: readonly unknown[]; count: number; limit: number };

/**
 * The `PagePromise` of a paginated `GET` (`await` it for one page, `for await` it for every entry). Every
 * list call of the API pages the same way (`perPage`, `page`; `documents`, `count`, `skip`, `limit`).
 */
export function listPages<O extends ListOperation>(
  requester: Requester,
  operation: O,
  call: { params?: Record<string, unknown>; query: object },
  options?: RequestOptions,
): PagePromise<OperationResult<O>, ItemOf<OperationResult<O>>> {
  // Bad parameters are sent to the call unchanged, which names each of them; good ones give the page size.
  const valid = operation.query.safeParse(call.query).data as { perPage?: number; page?: number } | undefined;
  const perPage = valid?.perPage ?? DEFAULT_PER_PAGE;
  return new PagePromise({
    fetchPage: (page) =>
      requester.call(
        operation,
        { ...call, query: valid ? { ...valid, perPage, page } : call.query },
        options,
      ),
    items: (page) => (page as Page).documents as ItemOf<OperationResult<O>>[],
    total: (page) => (page as Page).count,
    limit: (page) => (page as Page).limit,
    perPage,
    startPage: valid?.page ?? 1,
    signal: options?.signal,
    method: operation.method,
    path: operation.route,
  });
}

/** The entry type of a page. */
type ItemOf<P> = P extends { documents: ReadonlyArray<infer Item> } ? Item : never;
