import { z } from 'zod';

/**
 * The paging parameters of a list call, as the spec states them for `GET /v1/spv-requests`: `perPage`
 * 1..100 (default 10), `page` from 1 (default 1). A list with filters extends it.
 */
export const PageParams = z.strictObject({
  /** @default 10 */
  perPage: z.int().min(1).max(100).optional(),
  /** @default 1 */
  page: z.int().min(1).optional(),
});
export type PageParams = z.infer<typeof PageParams>;

/** One page of a list call: `documents`, `count` (the total, or on some servers this page's), `skip`, `limit`. */
export const pageOf = <Item extends z.ZodType>(item: Item) =>
  z.looseObject({ documents: z.array(item), count: z.int(), skip: z.int(), limit: z.int() });
