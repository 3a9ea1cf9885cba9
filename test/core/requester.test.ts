import { randomUUID } from 'node:crypto';
import { getHeapSnapshot } from 'node:v8';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { APIPromise, RawResponse } from '../../src/core/request/api-promise.js';
import { Requester, type RequesterConfig } from '../../src/core/request/requester.js';
import { responseValidation } from '../../src/core/request/response-validation.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { undiciTransport } from '../../src/core/transport/transport.js';
import { MultipartBody } from '../../src/core/uploads/multipart-body.js';
import { VERSION } from '../../src/version.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

function requester(overrides: Partial<RequesterConfig> = {}, base = server().url): Requester {
  return new Requester({
    baseUrl: new URL(base),
    transport: undiciTransport(),
    clock: drivingClock(),
    logger: memoryLogger(),
    validation: responseValidation('strict', memoryLogger()),
    maxRetries: 2,
    timeout: 5_000,
    retry: DEFAULT_RETRY,
    defaultHeaders: {},
    ...overrides,
  });
}

const Thing = z.looseObject({ id: z.string() });

describe('Requester: what goes on the wire', () => {
  it('joins the base path, encodes the query and sends the standard headers', async () => {
    server().reply({ status: 200, body: { id: 't1', extra: 'kept' }, headers: { 'x-request-id': 'req_1' } });
    const { data, response } = await requester(
      { defaultHeaders: { 'X-Partner': 'acme' } },
      `${server().url}/prefix/`,
    )
      .request({
        method: 'GET',
        path: '/v1/contracts/templates/1.0.0',
        auth: 'optional',
        query: { page: 2, status: 'pending-review', flag: true, skipped: undefined, q: 'a b&c' },
        response: Thing,
      })
      .withResponse();

    expect(data).toEqual({ id: 't1', extra: 'kept' });
    expect(response).toMatchObject({
      status: 200,
      requestId: 'req_1',
      attempts: 1,
      idempotencyKey: undefined,
    });
    const [sent] = server().requests;
    expect(sent?.method).toBe('GET');
    expect(sent?.path).toBe('/prefix/v1/contracts/templates/1.0.0');
    expect(sent?.rawUrl).toBe(
      '/prefix/v1/contracts/templates/1.0.0?page=2&status=pending-review&flag=true&q=a+b%26c',
    );
    expect(sent?.headers['user-agent']).toBe(`partner-equity-sdk/${VERSION} node/${process.version}`);
    expect(sent?.headers['accept']).toBe('application/json');
    expect(sent?.headers['x-partner']).toBe('acme');
    expect(sent?.headers['authorization']).toBeUndefined();
  });

  it('sends JSON bodies and per-call headers, and reads `request-id` too', async () => {
    server().reply({ status: 201, body: { id: 'n1' }, headers: { 'request-id': 'req_2' } });
    const { response } = await requester({ defaultHeaders: { 'x-a': 'default', 'x-b': 'default' } })
      .request({
        method: 'POST',
        path: '/v1/contracts',
        auth: 'optional',
        json: { name: 'Fund I', amount: '100.00' },
        idempotencyKey: 'key-1',
        response: Thing,
        options: { headers: { 'X-B': 'call' } },
      })
      .withResponse();
    const [sent] = server().requests;
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent?.text ?? '')).toEqual({ name: 'Fund I', amount: '100.00' });
    expect(sent?.headers['idempotency-key']).toBe('key-1');
    expect(sent?.headers['x-a']).toBe('default');
    expect(sent?.headers['x-b']).toBe('call');
    expect(response).toMatchObject({ status: 201, requestId: 'req_2', idempotencyKey: 'key-1' });
  });

  it('withResponse() gives a plain object: spreading or logging it keeps the raw response and its headers', async () => {
    server().reply({ status: 200, body: { id: 't2' }, headers: { 'x-request-id': 'req_3' } });
    const result = await requester()
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Thing })
      .withResponse();
    const copy = { ...result };
    expect(Object.keys(copy)).toEqual(['data', 'response']);
    expect(copy.response).toMatchObject({ status: 200, requestId: 'req_3', attempts: 1, replayed: false });
    expect(copy.response.headers.get('x-request-id')).toBe('req_3');
    expect(Object.keys({ ...copy.response })).toContain('headers');
    expect(JSON.parse(JSON.stringify(result))).toMatchObject({
      data: { id: 't2' },
      response: { status: 200, requestId: 'req_3' },
    });
  });

  it('a raw response kept after the call keeps its headers but not the body text', async () => {
    // The body's text holds the marker only as written on the wire (with a JSON escape); the parsed value
    // reads "ABC…", so a heap that still holds the escaped form still holds the text.
    const marker = `kept-${randomUUID()}`;
    server().reply({
      status: 200,
      body: `{"id":"\\u0041BC","note":"\\u0041${marker}"}`,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_4' },
    });
    const { response } = await requester()
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Thing })
      .withResponse();
    // A heap snapshot collects garbage first: only what is still reachable is in it.
    expect(await heapHolds(`u0041${marker}`)).toBe(false);
    expect(response.headers.get('x-request-id')).toBe('req_4');
  });

  it('sends form bodies url-encoded', async () => {
    server().reply({ status: 201, body: { id: 'tok' } });
    await requester().request({
      method: 'POST',
      path: '/v1/oauth2/tokens',
      auth: 'none',
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'a.b.c' },
      response: Thing,
    });
    const [sent] = server().requests;
    expect(sent?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(sent?.text))).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'a.b.c',
    });
  });

  it('sends multipart bodies with their boundary and rebuilds them for each attempt', async () => {
    server().reply({ status: 503 }, { status: 201, body: { id: 'f1' } });
    let builds = 0;
    await requester({ maxRetries: 1 }).request({
      method: 'POST',
      path: '/v1/contracts/upload',
      auth: 'optional',
      idempotencyKey: 'k',
      multipart: () => {
        builds += 1;
        return new MultipartBody(
          { amount: '10.00' },
          {
            name: 'file',
            filename: 'f.pdf',
            contentType: 'application/pdf',
            blob: new Blob([new Uint8Array([0x25, 0x50, 0x44, 0x46])]),
          },
        );
      },
      response: Thing,
    });
    expect(builds).toBe(2);
    for (const sent of server().requests) {
      expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(sent.headers['content-length']).toBe(String(sent.body.byteLength));
      expect(sent.text).toContain('name="amount"');
      expect(sent.text).toContain('filename="f.pdf"');
      expect(sent.text).toContain('%PDF');
    }
  });

  it('passes a non-JSON success body to the schema as text', async () => {
    server().reply({ status: 200, body: '<html>docs</html>', headers: { 'content-type': 'text/html' } });
    const html = await requester().request({
      method: 'GET',
      path: '/docs',
      auth: 'none',
      response: z.string(),
    });
    expect(html).toBe('<html>docs</html>');
  });

  it('resolves an empty 204 body as undefined', async () => {
    server().reply({ status: 204 });
    const value = await requester().request({
      method: 'DELETE',
      path: '/v1/contracts/x',
      auth: 'optional',
      response: z.undefined(),
    });
    expect(value).toBeUndefined();
  });
});

describe('types', () => {
  it('types the value by the response schema', () => {
    const call = () =>
      requester().request({ method: 'GET', path: '/', auth: 'none', response: z.object({ n: z.number() }) });
    expectTypeOf<ReturnType<typeof call>>().toEqualTypeOf<APIPromise<{ n: number }>>();
    expectTypeOf<Awaited<ReturnType<ReturnType<typeof call>['withResponse']>>>().toEqualTypeOf<{
      data: { n: number };
      response: RawResponse;
    }>();
  });
});

// Whether any string in this thread's heap (after a full GC) contains `text`.
async function heapHolds(text: string): Promise<boolean> {
  let tail = '';
  for await (const chunk of getHeapSnapshot()) {
    const window = tail + String(chunk);
    if (window.includes(text)) return true;
    tail = window.slice(-text.length);
  }
  return false;
}
