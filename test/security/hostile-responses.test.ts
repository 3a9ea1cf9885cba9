import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  InternalServerError,
  PartnerEquityError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../../src/core/errors/errors.js';
import type { Requester } from '../../src/core/request/requester.js';
import { nodeHttpTransport } from '../../src/core/transport/node-http.js';
import { fetchTransport, type Transport, undiciTransport } from '../../src/core/transport/transport.js';
import { EVENTUALLY } from '../helpers/eventually.js';
import { testRequester } from '../helpers/requester-factory.js';
import { head, useRawHttpServer } from './raw-http-server.js';

/**
 * A hostile or broken server (or a proxy in front of the API) answers; whatever it sends, the caller gets a
 * typed `PartnerEquityError`, never a raw `SyntaxError`/`TypeError`, never a hang, and the SDK reads no
 * more than `maxResponseBytes` of it. Real sockets; the server writes raw bytes so it can lie.
 */
const CAP = 256 * 1024;
const Thing = z.looseObject({ id: z.string() });
const { server, answer } = useRawHttpServer();

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const transports: Record<string, () => Transport> = {
  'node:http': () => {
    const transport = nodeHttpTransport({ maxResponseBytes: CAP });
    closers.push(transport.close);
    return transport;
  },
  undici: () => {
    const transport = undiciTransport({ maxResponseBytes: CAP });
    closers.push(transport.close);
    return transport;
  },
  fetch: () => fetchTransport(globalThis.fetch, { maxResponseBytes: CAP }),
};

/** Sends one GET /v1/contracts (no retries unless asked) and returns what the caller sees. */
async function call(transport: Transport, options: { maxRetries?: number; timeout?: number } = {}) {
  const requester: Requester = testRequester(server().url, {
    transport,
    maxRetries: options.maxRetries ?? 0,
    timeout: options.timeout ?? 5_000,
  });
  const started = performance.now();
  const error = await requester
    .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Thing })
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  return { error, ms: performance.now() - started };
}

/** Answers with a status, headers and body written exactly as given. */
function replyWith(status: string, headers: Record<string, string | number>, body: string | Uint8Array) {
  answer(async ({ write, socket }) => {
    await write(head(status, headers));
    await write(body);
    socket.end();
  });
}

/**
 * Streams `chunk` until the client stops reading or `maxBytes` went out; never declares a length. Resolves
 * with the bytes that went out once the server stops.
 */
function endlessChunked(chunk: Uint8Array, maxBytes: number): Promise<number> {
  let finished: (sent: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    finished = resolve;
  });
  answer(async ({ write, socket }) => {
    await write(head('200 OK', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
    let sent = 0;
    while (sent < maxBytes) {
      const framed = Buffer.concat([
        Buffer.from(`${chunk.byteLength.toString(16)}\r\n`),
        chunk,
        Buffer.from('\r\n'),
      ]);
      if (!(await write(framed))) break;
      sent += chunk.byteLength;
    }
    finished(sent);
    if (sent >= maxBytes) socket.end('0\r\n\r\n');
  });
  return done;
}

describe.each(Object.entries(transports))('hostile responses over the %s transport', (_name, transport) => {
  it('truncated JSON with an honest Content-Length → ResponseValidationError that does not quote the body', async () => {
    const body = '{"id":"t1","secretish":"eyJhbGciOiJFZERTQSJ9.eyJz';
    replyWith(
      '200 OK',
      { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      body,
    );
    const { error } = await call(transport());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(String((error as Error).message)).not.toContain('eyJ');
    expect(server().requests).toHaveLength(1);
  });

  it('a body cut off before its Content-Length → APIConnectionError, retried like any dropped connection', async () => {
    answer(async ({ write, socket }) => {
      await write(head('200 OK', { 'content-type': 'application/json', 'content-length': 100 }));
      await write('{"id":"t1","na');
      socket.destroy();
    });
    const { error } = await call(transport(), { maxRetries: 1 });
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect(server().requests).toHaveLength(2);
  });

  it('a wrong content type (XML for a JSON resource) → ResponseValidationError', async () => {
    replyWith('200 OK', { 'content-type': 'application/xml', 'content-length': 18 }, '<thing id="t1"/>\n\n');
    const { error } = await call(transport());
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it('HTML declared as JSON → ResponseValidationError, not a SyntaxError', async () => {
    const html = '<html><body>Welcome</body></html>';
    replyWith('200 OK', { 'content-type': 'application/json', 'content-length': html.length }, html);
    const { error } = await call(transport());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).not.toBeInstanceOf(SyntaxError);
  });

  it("a proxy's HTML 502 page → InternalServerError (retried), markup and script stripped from the excerpt", async () => {
    const page =
      '<!DOCTYPE html><html><head><script>var t="tok_live_abc";</script><style>b{}</style></head>' +
      `<body><h1>502 Bad Gateway</h1><p>nginx</p>${'<div>x</div>'.repeat(500)}</body></html>`;
    replyWith('502 Bad Gateway', { 'content-type': 'text/html', 'content-length': page.length }, page);
    const { error } = await call(transport(), { maxRetries: 2 });
    expect(error).toBeInstanceOf(InternalServerError);
    const apiError = error as InternalServerError;
    expect(apiError.status).toBe(502);
    expect(apiError.attempts).toBe(3);
    expect(apiError.message).not.toMatch(/<|tok_live|var t/);
    expect(apiError.message.length).toBeLessThan(600);
    expect(server().requests).toHaveLength(3);
  });

  it('a 2 GB Content-Length claim → ResponseTooLargeError at once, without reading or waiting for the body', async () => {
    answer(async ({ write }) => {
      await write(head('200 OK', { 'content-type': 'application/json', 'content-length': 2 * 1024 ** 3 }));
      await write('{"id":"');
      // …and never sends the rest: only the declared length can stop the client early.
    });
    const { error, ms } = await call(transport(), { timeout: 10_000 });
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(ms).toBeLessThan(5_000);
  });

  it('the same claim on an error status → ResponseTooLargeError too', async () => {
    answer(async ({ write }) => {
      await write(
        head('503 Service Unavailable', { 'content-type': 'text/html', 'content-length': 2 * 1024 ** 3 }),
      );
      await write('<html>');
    });
    const { error } = await call(transport(), { timeout: 10_000 });
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('an endless chunked body → ResponseTooLargeError; the client stops reading near the cap', async () => {
    const limit = 64 * 1024 * 1024;
    const sent = endlessChunked(new Uint8Array(16 * 1024).fill(0x20), limit);
    const { error } = await call(transport());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    // The client closed the socket: the server stopped early. It could push at most the cap plus what socket
    // buffers hold before backpressure stopped it — far from the 64 MiB a client that kept reading would get.
    const bytes = await sent;
    expect(bytes).toBeLessThan(limit);
    expect(bytes).toBeLessThan(CAP + 16 * 1024 * 1024);
  });

  it('a body that trickles forever → APITimeoutError within the attempt timeout', async () => {
    // The server trickles until the client hangs up (or for a minute): the call can only end by the attempt
    // timeout cutting the body short, whatever a busy machine does to the timings.
    let hungUp = false;
    answer(async ({ write }) => {
      await write(head('200 OK', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
      for (let i = 0; i < 2_400; i += 1) {
        if (!(await write('1\r\n \r\n'))) {
          hungUp = true;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });
    const { error } = await call(transport(), { timeout: 200 });
    expect(error).toBeInstanceOf(APITimeoutError);
    await vi.waitFor(() => expect(hungUp).toBe(true), EVENTUALLY);
  });

  it('bytes that are not HTTP → APIConnectionError', async () => {
    answer(async ({ write, socket }) => {
      await write('SSH-2.0-OpenSSH_9.6\r\n\r\n');
      socket.end();
    });
    const { error } = await call(transport());
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('a 64 KiB response header → a typed error, not a crash', async () => {
    answer(async ({ write, socket }) => {
      await write(head('200 OK', { 'x-junk': 'a'.repeat(64 * 1024), 'content-length': 2 }));
      await write('{}');
      socket.end();
    });
    const { error } = await call(transport());
    expect(error).toBeInstanceOf(PartnerEquityError);
  });

  it('JSON nested 100,000 levels deep → ResponseValidationError, no RangeError', async () => {
    const depth = 100_000;
    const body = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    replyWith('200 OK', { 'content-type': 'application/json', 'content-length': body.length }, body);
    const { error } = await call(transport());
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it('a redirect is not followed (the bearer token would go elsewhere) and surfaces as an APIError', async () => {
    replyWith('302 Found', { location: 'http://127.0.0.2:9/steal', 'content-length': 0 }, '');
    const { error } = await call(transport());
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(302);
    expect(server().requests).toHaveLength(1);
  });
});

describe('response bodies cannot pollute prototypes', () => {
  it('keeps `__proto__` and `constructor` keys out of parsed data and Object.prototype', async () => {
    const body = '{"id":"t1","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    replyWith('200 OK', { 'content-type': 'application/json', 'content-length': body.length }, body);
    const data = await testRequester(server().url, {
      transport: transports['undici']!(),
      maxRetries: 0,
    }).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Thing,
    });
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect((data as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
