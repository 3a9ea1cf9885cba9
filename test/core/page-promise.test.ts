import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APIUserAbortError } from '../../src/core/errors/errors.js';
import { PagePromise } from '../../src/core/request/page-promise.js';
import type { Requester } from '../../src/core/request/requester.js';
import { testRequester } from '../helpers/requester-factory.js';
import { type RecordedRequest, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const Page = z.looseObject({
  documents: z.array(z.looseObject({ slug: z.string() })),
  count: z.number().int().optional(),
  limit: z.number().int().optional(),
});
type Page = z.infer<typeof Page>;

/**
 * Serves `total` items in pages of `perPage` (read from the query), or of `cap` when the server caps pages
 * lower. `count` is the total, the page's own length, or absent; `limit` says the page size it used.
 */
function pagedServer(
  total: number,
  options: { reportCount?: boolean; count?: 'total' | 'page'; cap?: number; limit?: boolean } = {},
) {
  const count = options.count ?? (options.reportCount ? 'total' : undefined);
  server().fallback((request: RecordedRequest) => {
    const page = Number(request.query.get('page'));
    const size = Math.min(Number(request.query.get('perPage')), options.cap ?? Number.POSITIVE_INFINITY);
    const first = (page - 1) * size;
    const documents = Array.from({ length: Math.max(0, Math.min(size, total - first)) }, (_, i) => ({
      slug: `spvr_${first + i + 1}`,
    }));
    return {
      status: 200,
      body: {
        documents,
        ...(count === undefined ? {} : { count: count === 'total' ? total : documents.length }),
        ...(options.limit ? { limit: size } : {}),
      },
    };
  });
}

function list(requester: Requester, perPage: number, extra: { signal?: AbortSignal; count?: boolean } = {}) {
  return new PagePromise<Page, Page['documents'][number]>({
    method: 'GET',
    path: '/v1/contracts/list',
    perPage,
    signal: extra.signal,
    items: (page) => page.documents,
    total: extra.count ? (page) => page.count : undefined,
    limit: (page) => page.limit,
    fetchPage: (page) =>
      requester.request({
        method: 'GET',
        path: '/v1/contracts/list',
        auth: 'optional',
        query: { page, perPage },
        response: Page,
      }),
  });
}

describe('PagePromise', () => {
  it('await gives the first page only', async () => {
    pagedServer(5);
    const page = await list(testRequester(server().url), 2);
    expect(page.documents.map((d) => d.slug)).toEqual(['spvr_1', 'spvr_2']);
    expect(server().requests).toHaveLength(1);
  });

  it('for await walks every item over three pages and stops at the short page', async () => {
    pagedServer(5);
    const slugs: string[] = [];
    for await (const item of list(testRequester(server().url), 2)) slugs.push(item.slug);
    expect(slugs).toEqual(['spvr_1', 'spvr_2', 'spvr_3', 'spvr_4', 'spvr_5']);
    expect(server().requests.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it('stops fetching after an early break', async () => {
    pagedServer(5);
    const slugs: string[] = [];
    for await (const item of list(testRequester(server().url), 2)) {
      slugs.push(item.slug);
      if (slugs.length === 3) break;
    }
    expect(slugs).toEqual(['spvr_1', 'spvr_2', 'spvr_3']);
    expect(server().requests).toHaveLength(2);
  });

  it('stops after an empty page when the last page was full', async () => {
    pagedServer(4);
    const slugs: string[] = [];
    for await (const item of list(testRequester(server().url), 2)) slugs.push(item.slug);
    expect(slugs).toHaveLength(4);
    expect(server().requests).toHaveLength(3);
  });

  it('stops once the reported count is reached, without fetching an empty page', async () => {
    pagedServer(4, { reportCount: true });
    const slugs: string[] = [];
    for await (const item of list(testRequester(server().url), 2, { count: true })) slugs.push(item.slug);
    expect(slugs).toHaveLength(4);
    expect(server().requests).toHaveLength(2);
  });

  it('shares the first page between await and iteration', async () => {
    pagedServer(3);
    const pages = list(testRequester(server().url), 2);
    const first = await pages;
    const all: string[] = [];
    for await (const item of pages) all.push(item.slug);
    expect(first.documents).toHaveLength(2);
    expect(all).toEqual(['spvr_1', 'spvr_2', 'spvr_3']);
    expect(server().requests).toHaveLength(2);
  });

  it('honours the signal between pages', async () => {
    pagedServer(10);
    const controller = new AbortController();
    const slugs: string[] = [];
    const walk = async () => {
      for await (const item of list(testRequester(server().url), 2, { signal: controller.signal })) {
        slugs.push(item.slug);
        if (slugs.length === 2) controller.abort();
      }
    };
    await expect(walk()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(slugs).toEqual(['spvr_1', 'spvr_2']);
    expect(server().requests).toHaveLength(1);
  });

  it('exposes the first page response', async () => {
    pagedServer(1);
    const { data, response } = await list(testRequester(server().url), 2).withResponse();
    expect(data.documents).toHaveLength(1);
    expect(response.status).toBe(200);
  });
});

// Both readings of `count` are spec-conformant (`count | integer`, no note), and a server may use another
// page size than asked: every combination walks every item, with the requests counted.
describe('PagePromise on servers that read count and page size differently', () => {
  const walk = async (perPage: number) => {
    const slugs: string[] = [];
    for await (const item of list(testRequester(server().url), perPage, { count: true }))
      slugs.push(item.slug);
    return slugs;
  };
  const expected = (n: number) => Array.from({ length: n }, (_, i) => `spvr_${i + 1}`);

  it.each([
    // [case, items, perPage, server options, requests]
    ['count is the total', 7, 3, { count: 'total', limit: true }, 3],
    ['count is the total, last page exactly full', 6, 3, { count: 'total', limit: true }, 2],
    ['count counts the page', 7, 3, { count: 'page', limit: true }, 3],
    ['count counts the page, last page exactly full', 6, 3, { count: 'page', limit: true }, 3],
    ['no count', 7, 3, { limit: true }, 3],
    ['no count, last page exactly full', 6, 3, { limit: true }, 3],
    ['a server that caps pages below perPage and says so', 7, 5, { count: 'page', cap: 2, limit: true }, 4],
    ['a server that caps pages below perPage silently', 7, 5, { count: 'page', cap: 2 }, 4],
    ['a silent cap, last page exactly full', 6, 5, { cap: 2 }, 4],
    ['a single short page with no limit: one extra request at most', 2, 5, { count: 'page' }, 2],
    ['an empty list', 0, 5, { count: 'total', limit: true }, 1],
  ] as const)('%s', async (_case, total, perPage, options, requests) => {
    pagedServer(total, options);
    expect(await walk(perPage)).toEqual(expected(total));
    expect(server().requests).toHaveLength(requests);
  });
});
