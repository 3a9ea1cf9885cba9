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
});
type Page = z.infer<typeof Page>;

/** Serves `total` items in pages of `perPage`, reading `page`/`perPage` from the query. */
function pagedServer(total: number, options: { reportCount?: boolean } = {}) {
  server().fallback((request: RecordedRequest) => {
    const page = Number(request.query.get('page'));
    const perPage = Number(request.query.get('perPage'));
    const first = (page - 1) * perPage;
    const documents = Array.from({ length: Math.max(0, Math.min(perPage, total - first)) }, (_, i) => ({
      slug: `spvr_${first + i + 1}`,
    }));
    return { status: 200, body: options.reportCount ? { documents, count: total } : { documents } };
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
