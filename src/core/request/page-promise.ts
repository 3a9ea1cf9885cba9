import { APIUserAbortError } from '../errors/errors.js';
import type { APIPromise, WithResponse } from './api-promise.js';

/** How a {@link PagePromise} fetches pages and reads items out of them. */
export interface PageSource<Page, Item> {
  /** Fetches page `page` (1-based). */
  fetchPage(page: number): APIPromise<Page>;
  /** The items of a page. */
  items(page: Page): readonly Item[];
  /** The page size asked for; a page with fewer items is the last one. */
  perPage: number;
  /** The total number of items, when the page reports it; iteration stops once that many were yielded. */
  total?: ((page: Page) => number | undefined) | undefined;
  /** First page to fetch. @default 1 */
  startPage?: number | undefined;
  /** Stops iteration between pages (and is passed to each page request by the caller). */
  signal?: AbortSignal | undefined;
  /** Where to report an abort: the list call's method and path. */
  method: string;
  path: string;
}

/**
 * The result of a list call. `await` it for one page; `for await` it for every item across pages. Pages are
 * fetched lazily, one at a time, only as iteration needs them; `break` stops fetching.
 *
 * Iteration stops after an empty page, a short page (fewer items than `perPage`), or once the page's
 * reported total has been yielded.
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
    if (!Number.isSafeInteger(source.perPage) || source.perPage < 1) {
      throw new RangeError('PagePromise: perPage must be a positive integer');
    }
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
    // Items on the pages before `startPage` count towards the reported total too.
    let seen = (number - 1) * perPage;
    let page = await this.#firstPage();
    for (;;) {
      yield page;
      const count = this.#source.items(page).length;
      seen += count;
      const total = this.#source.total?.(page);
      if (count === 0 || count < perPage || (total !== undefined && seen >= total)) return;
      if (signal?.aborted) {
        throw new APIUserAbortError(this.#source, { cause: signal.reason });
      }
      number += 1;
      page = await this.#source.fetchPage(number);
    }
  }

  /** Every item of every page, in order (`for await`); pages are fetched as iteration reaches them. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) {
      yield* this.#source.items(page);
    }
  }
}
