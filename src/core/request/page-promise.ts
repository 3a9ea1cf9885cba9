import { ResponseValidationError, userAbortError } from '../errors/errors.js';
import { redact } from '../logging/redact.js';
import type { APIPromise, RawResponse, WithResponse } from './api-promise.js';

/** How a {@link PagePromise} fetches pages and reads items out of them. */
export interface PageSource<Page, Item> {
  /** Fetches page `page` (1-based). */
  fetchPage(page: number): APIPromise<Page>;
  items(page: Page): readonly Item[];
  /** The page size asked for. */
  perPage: number;
  /** The page's `count`: the list's total, or (on some servers) this page's. */
  total?: ((page: Page) => number | undefined) | undefined;
  /** The page size the server says it used (`limit`), when it says. */
  limit?: ((page: Page) => number | undefined) | undefined;
  /** First page to fetch. @default 1 */
  startPage?: number | undefined;
  /** Stops iteration between pages. */
  signal?: AbortSignal | undefined;
  /** The list call, to name in an abort. */
  method: string;
  path: string;
}

/**
 * The result of a list call. `await` it for one page; `for await` it for every item across pages. Pages are
 * fetched lazily, one at a time, only as iteration needs them; `break` stops fetching.
 *
 * Iteration stops after an empty page, after a page shorter than the page size the server used (its
 * `limit` when it sends one, else the size of the pages before it), or once a reported total that is
 * larger than a page has been yielded. A `count` equal to the page's own length may count the page rather
 * than the list, so it never ends iteration alone: the worst case is one extra request, for an empty page.
 *
 * @example
 * ```ts
 * const page = await client.spvRequests.list({ perPage: 50 });        // one page
 * for await (const request of client.spvRequests.list({ perPage: 50 })) {  // every item
 *   if (request.status === 'approved') break;                          // no further pages are fetched
 * }
 * ```
 */
export class PagePromise<Page, Item> implements PromiseLike<Page>, AsyncIterable<Item> {
  readonly #source: PageSource<Page, Item>;
  #first: APIPromise<Page> | undefined;

  /** @internal Built by the list methods, e.g. `client.spvRequests.list()`. */
  constructor(source: PageSource<Page, Item>) {
    if (!Number.isSafeInteger(source.perPage) || source.perPage < 1)
      throw new RangeError('PagePromise: perPage must be a positive integer');
    this.#source = source;
  }

  /** `'PagePromise'`, for `Object.prototype.toString` and debuggers. */
  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }

  // The first page is fetched once, on first use, and shared by `await` and iteration.
  #firstPage(): APIPromise<Page> {
    this.#first ??= this.#source.fetchPage(this.#source.startPage ?? 1);
    return this.#first;
  }

  /** The first page together with its raw response. */
  withResponse(): Promise<WithResponse<Page>> {
    return this.#firstPage().withResponse();
  }

  // biome-ignore lint/suspicious/noThenProperty: an intentional thenable: `await` gives the parsed value.
  then<R1 = Page, R2 = never>(
    onfulfilled?: ((value: Page) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  /** Like `Promise#catch`, on the first page. */
  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page | R> {
    return this.#firstPage().catch(onrejected);
  }

  /** Like `Promise#finally`, on the first page. */
  finally(onfinally?: (() => void) | null): Promise<Page> {
    return this.#firstPage().finally(onfinally);
  }

  /** Every page in turn, starting with the first; stops by the same rules as item iteration. */
  async *pages(): AsyncGenerator<Page, void, undefined> {
    const { perPage, signal } = this.#source;
    let number = this.#source.startPage ?? 1;
    // Items on the pages before `startPage` count towards a reported total too.
    let seen = (number - 1) * perPage;
    // The largest page seen: a server that caps pages below `perPage` without saying so is learned from it.
    let largest = 0;
    let { data: page, response } = await this.#firstPage().withResponse();
    for (;;) {
      const items = this.#source.items(page);
      // A page without its list (kept per `responseValidation` when awaited) cannot be iterated.
      if (!Array.isArray(items)) throw notAPage(this.#source, page, response);
      yield page;
      const length = items.length;
      seen += length;
      const limit = positive(this.#source.limit?.(page));
      const total = this.#source.total?.(page);
      const pageSize = limit ?? (largest > 0 ? largest : undefined);
      largest = Math.max(largest, length);
      if (length === 0) return;
      if (pageSize !== undefined && length < pageSize) return;
      if (total !== undefined && total > length && seen >= total) return;
      if (signal?.aborted) throw userAbortError(this.#source, signal);
      number += 1;
      ({ data: page, response } = await this.#source.fetchPage(number).withResponse());
    }
  }

  /** Every item of every page, in order (`for await`); pages are fetched as iteration reaches them. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* this.#source.items(page);
  }
}

function notAPage(call: { method: string; path: string }, page: unknown, response: RawResponse) {
  return new ResponseValidationError({
    method: call.method,
    path: call.path,
    status: response.status,
    contentType: response.headers.get('content-type') ?? undefined,
    requestId: response.requestId,
    issues: [{ path: '', message: 'no list of items' }],
    summary: 'is not a page',
    body: redact(page),
  });
}

function positive(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
