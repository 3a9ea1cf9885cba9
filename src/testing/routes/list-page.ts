import { z } from 'zod';
import { unprocessable } from '../http-problem.js';
import type { FakeProfile } from '../profiles/fake-profile.js';
import { defineRoute, json, type Route, type RouteContext } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import { toValidationProblems } from '../zod-issues.js';

/** A query parameter holding an integer in `[min, max]`, `fallback` when absent (422 `Input should be…`). */
const intParam = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'Input should be a valid integer')
    .transform(Number)
    .pipe(z.int().min(min).max(max))
    .optional()
    .transform((value) => value ?? fallback);

/** The paging parameters every list route reads, as the spec states them for `GET /v1/spv-requests`. */
const PAGING = { perPage: intParam(1, 100, 10), page: intParam(1, Number.MAX_SAFE_INTEGER, 1) };
/** The same parameters as `/openapi.json` documents them. */
const PAGING_DOC = {
  perPage: z.int().min(1).max(100).optional(),
  page: z.int().min(1).optional(),
};

/** One page as every list route sends it: `count` the list's total, `skip`/`limit` locating the page. */
export const pageOf = (item: z.ZodType) =>
  z.looseObject({
    documents: z.array(item),
    count: z.int().nonnegative(),
    skip: z.int().nonnegative(),
    limit: z.int().positive(),
  });

/**
 * How the page is documented: from the entry's wire shape (a route-local schema, documented as
 * `<operationId>200`), or, for a route whose docs name wire components (`GET /v1/spv-requests`), by them.
 */
type PageDoc =
  | { item: z.ZodType; documented?: never }
  | { item?: never; documented: { query: z.ZodObject; page: z.ZodType } };

/** What a paginated `GET` declares; {@link listPageRoute} adds paging, order, the page body and the docs. */
export type ListPage<Query extends z.ZodRawShape, Row> = PageDoc & {
  path: string;
  operationId: string;
  /** The list in words; the profile's order is appended (`…, newest first`). */
  summary: string;
  tag: string;
  /** Filters beyond `perPage`/`page`, as strings are parsed (`z.enum([...]).optional()`). */
  filters?: Query;
  /** Error statuses besides 401/403/422 (`404` when the path names a resource). */
  errors?: number[];
  /** The matching rows, oldest first (may throw `HttpProblem`, such as a 404 for the path's resource). */
  rows(ctx: RouteContext, filters: z.output<z.ZodObject<Query>>): Row[];
  /** One row as the default profile's wire JSON; the profile presents it next. */
  entry(row: Row): Record<string, unknown>;
  /** The profile's presenter for one entry (the identity when omitted). */
  present?: (entry: Record<string, unknown>) => unknown;
};

/**
 * A paginated `GET` route: parses `perPage`/`page` and the filters (422 naming each bad one), orders the
 * rows as the profile does (`routes.listOrder`), slices the page and sends it as the profile presents pages.
 */
export function listPageRoute<Query extends z.ZodRawShape, Row>(
  { schemas, present, routes }: FakeProfile,
  list: ListPage<Query, Row>,
): Route {
  const Query = z.object({ ...PAGING, ...list.filters });
  return defineRoute({
    method: 'GET',
    path: list.path,
    auth: 'bearer',
    partner: true,
    doc: {
      operationId: list.operationId,
      summary: `${list.summary}, ${routes.listOrder.replace('-first', ' first')}`,
      tag: list.tag,
      query: list.documented?.query ?? z.object({ ...PAGING_DOC, ...list.filters }),
      responses: {
        ...ok(200, 'One page', list.documented === undefined ? pageOf(list.item) : list.documented.page),
        ...errorResponses(schemas, 401, 403, ...(list.errors ?? []), 422),
      },
    },
    run: (ctx) => {
      const raw = Object.fromEntries(ctx.url.searchParams);
      const query = Query.safeParse(raw);
      if (!query.success) throw unprocessable(toValidationProblems(query.error, raw, ['query']));
      const { perPage, page, ...filters } = query.data;
      const rows = list.rows(ctx, filters as z.output<z.ZodObject<Query>>);
      if (routes.listOrder === 'newest-first') rows.reverse();
      const skip = (page - 1) * perPage;
      const presentEntry = list.present ?? ((entry) => entry);
      return json(
        200,
        present.listPage({
          documents: rows.slice(skip, skip + perPage).map((row) => presentEntry(list.entry(row))),
          count: rows.length,
          skip,
          limit: perPage,
        }),
      );
    },
  });
}
