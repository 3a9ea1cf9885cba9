import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseValidationMode } from '../../src/core/request/response-validation.js';
import { PartnerEquity, ResponseValidationError } from '../../src/index.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { spvBody } from '../helpers/spv-body.js';

// A 2xx body that is not what the route returns (a proxy's maintenance page, cut JSON, another type) is a
// ResponseValidationError in every validation mode, never a value: lists and their iterators included.

const fake = new FakePartnerEquity();
let partner: Awaited<ReturnType<FakePartnerEquity['createPartner']>>;
let slug: string;
// What the next matching answer is replaced with (the request still reaches the fake over loopback).
let replace: { path: RegExp; status?: number; type: string; body: string } | undefined;

const swapping: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
  if (replace === undefined || !replace.path.test(path)) return response;
  await response.arrayBuffer();
  return new Response(replace.body, {
    status: replace.status ?? 200,
    headers: { 'content-type': replace.type },
  });
};

function client(responseValidation: ResponseValidationMode) {
  return new PartnerEquity({ ...partner, fetch: swapping, logger: memoryLogger(), responseValidation });
}

beforeAll(async () => {
  await fake.listen();
  partner = await fake.createPartner();
  const sdk = client('strict');
  ({ spvRequestSlug: slug } = await sdk.spvRequests.create(await spvBody(sdk)));
});
afterAll(() => fake.close());

const GET = /^\/v1\/spv-requests\/[^/]+$/;
const LIST = /^\/v1\/spv-requests$/;
const maintenance =
  '<!doctype html><html><head><style>body{color:red}</style></head><body><h1>Down for maintenance</h1>' +
  '<p>Back soon. Ref eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ</p></body></html>';

async function failure(call: Promise<unknown>): Promise<ResponseValidationError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ResponseValidationError);
  return error as ResponseValidationError;
}

describe.each(['strict', 'warn', 'off'] as const)("responseValidation: '%s'", (mode) => {
  it('a maintenance page on a 200 rejects, with the status, content type and a redacted excerpt', async () => {
    replace = { path: GET, type: 'text/html; charset=utf-8', body: maintenance };
    const error = await failure(client(mode).spvRequests.get(slug));
    expect(error).toMatchObject({ status: 200, contentType: 'text/html; charset=utf-8' });
    expect(error.message).toMatch(/^GET \/v1\/spv-requests\/[^:]+: 200 response is not JSON \(text\/html\)/);
    expect(error.body).toMatch(/^Down for maintenance Back soon\. Ref \[REDACTED/);
    expect(JSON.stringify(error.body)).not.toMatch(/eyJhbGciOi|<h1>|color:red/);
  });

  it('truncated JSON labelled text/html rejects', async () => {
    replace = { path: GET, type: 'text/html', body: '{"spvRequestSlug":"abc","status":"sub' };
    const error = await failure(client(mode).spvRequests.get(slug));
    expect(error.message).toMatch(/is not JSON/);
  });

  it('JSON of another type than the route returns rejects', async () => {
    replace = { path: GET, type: 'application/json', body: '["not", "an", "spv request"]' };
    const error = await failure(client(mode).spvRequests.get(slug));
    expect(error.message).toMatch(
      /is not what the route returns \(application\/json\): \(root\): expected object, got array/,
    );
  });

  it('a list page that is not a page rejects, on await and in for await', async () => {
    replace = { path: LIST, type: 'text/html', body: maintenance };
    await failure(client(mode).spvRequests.list());
    const items = async () => {
      for await (const _ of client(mode).spvRequests.list()) void _;
    };
    await failure(items());
    replace = { path: LIST, type: 'application/json', body: '{"count":3,"skip":0,"limit":10}' };
    const error = await failure(items());
    expect(error).toMatchObject({ status: 200, contentType: 'application/json' });
    // Strict mode refuses the page itself; the others refuse to iterate it.
    expect(error.issues.map((issue) => issue.path)).toEqual([mode === 'strict' ? 'documents' : '']);
  });

  it('the routes that return text still do', async () => {
    replace = undefined;
    const docs = await client(mode).system.docs();
    expect(docs).toMatch(/<html/i);
  });
});
