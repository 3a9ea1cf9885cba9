import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  InternalServerError,
  ResponseTooLargeError,
  UnprocessableEntityError,
} from '../../src/core/errors/errors.js';
import { fetchTransport } from '../../src/core/transport/transport.js';
import { MultipartBody } from '../../src/core/uploads/multipart-body.js';
import { VERSION } from '../../src/version.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { scriptedAuthenticator, testRequester } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const Ok = z.looseObject({ ok: z.literal(true) });
const ok = { status: 200, body: { ok: true } } as const;

function requester(overrides: Parameters<typeof testRequester>[1] = {}) {
  return testRequester(server().url, {
    transport: fetchTransport(globalThis.fetch),
    authenticator: scriptedAuthenticator(['at_1']).authenticator,
    ...overrides,
  });
}

describe('fetch transport', () => {
  it('sends the same request bytes and headers as the default transport', async () => {
    server().reply({ status: 200, body: { ok: true }, headers: { 'x-request-id': 'req_f' } });
    const { response } = await requester()
      .request({
        method: 'GET',
        path: '/v1/spv-requests',
        query: { page: 1, status: 'approved' },
        response: Ok,
      })
      .withResponse();
    const [sent] = server().requests;
    expect(sent?.rawUrl).toBe('/v1/spv-requests?page=1&status=approved');
    expect(sent?.headers['authorization']).toBe('Bearer at_1');
    expect(sent?.headers['user-agent']).toBe(`partner-equity-sdk/${VERSION} node/${process.version}`);
    expect(sent?.headers['accept']).toBe('application/json');
    expect(response).toMatchObject({ status: 200, requestId: 'req_f', attempts: 1 });
  });

  it('retries a keyed POST with the same key and backoff waits on the clock', async () => {
    const clock = drivingClock();
    server().reply({ status: 503 }, 'destroy', { status: 201, body: { ok: true } });
    await requester({ clock }).request({
      method: 'POST',
      path: '/v1/spv-requests',
      json: { templateId: 't' },
      idempotencyKey: 'key-f',
      response: Ok,
    });
    expect(server().requests.map((r) => r.headers['idempotency-key'])).toEqual(['key-f', 'key-f', 'key-f']);
    expect(clock.waits).toHaveLength(2);
  });

  it('does not retry an unkeyed POST', async () => {
    server().reply('destroy');
    await expect(
      requester().request({ method: 'POST', path: '/v1/investors', json: { investors: [] }, response: Ok }),
    ).rejects.toBeInstanceOf(APIConnectionError);
    expect(server().requests).toHaveLength(1);
  });

  it('maps error statuses', async () => {
    server().reply(
      { status: 422, body: { detail: [{ loc: ['body', 'x'], msg: 'bad', type: 'value_error' }] } },
      { status: 500, body: { code: 'boom', detail: 'boom', errorId: 'e' } },
    );
    await expect(
      requester().request({
        method: 'GET',
        path: '/v1/contracts',
        auth: 'optional',
        response: Ok,
        options: { maxRetries: 0 },
      }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
    await expect(
      requester().request({
        method: 'GET',
        path: '/v1/contracts',
        auth: 'optional',
        response: Ok,
        options: { maxRetries: 0 },
      }),
    ).rejects.toBeInstanceOf(InternalServerError);
  });

  it('sends multipart with a boundary', async () => {
    server().reply({ status: 201, body: { ok: true } });
    await requester().request({
      method: 'POST',
      path: '/v1/spvs/s/subscription/p/forms',
      multipart: () =>
        new MultipartBody(
          {},
          {
            name: 'file',
            filename: 'signed.pdf',
            contentType: 'application/pdf',
            blob: new Blob(['%PDF-1.7']),
          },
        ),
      response: Ok,
    });
    expect(server().requests[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    // Sent as a Blob, so fetch declares its length.
    expect(server().requests[0]?.headers['content-length']).toBe(
      String(server().requests[0]?.body.byteLength),
    );
    expect(server().requests[0]?.text).toContain('%PDF-1.7');
  });

  it('times out, aborts and bounds the body like the default transport', async () => {
    server().reply('hang', 'hang', { status: 200, body: { ok: true, pad: 'x'.repeat(4_000) } });
    await expect(
      requester({ timeout: 50 }).request({
        method: 'GET',
        path: '/v1/contracts',
        auth: 'optional',
        response: Ok,
        options: { maxRetries: 0 },
      }),
    ).rejects.toBeInstanceOf(APITimeoutError);

    const controller = new AbortController();
    const call = requester().request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
      options: { signal: controller.signal },
    });
    while (server().requests.length < 2) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);

    await expect(
      requester({ transport: fetchTransport(globalThis.fetch, { maxResponseBytes: 1_000 }) }).request({
        method: 'GET',
        path: '/v1/contracts',
        auth: 'optional',
        response: Ok,
      }),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('returns success bodies parsed', async () => {
    server().reply(ok);
    await expect(
      requester().request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok }),
    ).resolves.toEqual({ ok: true });
  });
});
