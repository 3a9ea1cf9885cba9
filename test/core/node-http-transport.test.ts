import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../src/core/errors/errors.js';
import { nodeHttpTransport } from '../../src/core/transport/node-http.js';
import { readText, type StreamedBody, type TransportRequest } from '../../src/core/transport/transport.js';

// The default transport (issue 48): Node's own http client. What a partner's server sees on the wire, what
// the pipeline reads back, and how an attempt ends.
let server: Server | undefined;
const sockets = new Set<Socket>();
const transport = nodeHttpTransport({ maxResponseBytes: 1_000 });

afterEach(async () => {
  await transport.close();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
  sockets.clear();
});

interface Seen {
  head: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function serve(answer: (seen: Seen, res: ServerResponse) => void): Promise<URL> {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const seen = {
        head: `${req.method} ${req.url}`,
        headers: req.headers,
        body: Buffer.concat(parts).toString(),
      };
      answer(seen, res);
    });
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
  return new URL(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`);
}

const request = (url: URL, extra: Partial<TransportRequest> = {}): TransportRequest => ({
  method: 'GET',
  url,
  headers: {},
  signal: new AbortController().signal,
  ...extra,
});

function upload(parts: string[], failAfter?: number): StreamedBody {
  const bytes = parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
  return {
    contentType: 'application/pdf',
    length: bytes,
    async *chunks() {
      for (const [index, part] of parts.entries()) {
        if (index === failAfter) throw new Error('disk read failed');
        yield Buffer.from(part);
      }
    },
    toBlob: async () => new Blob(parts),
  };
}

describe('the node:http transport', () => {
  it('sends a JSON body with its length, and reads the answer, its headers and a query string', async () => {
    let seen: Seen | undefined;
    const base = await serve((request, res) => {
      seen = request;
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': ' req_1 ' });
      res.end('{"price":"1€"}');
    });
    const body = '{"name":"Zoë"}';
    const url = new URL('/v1/x?page=2', base);
    const response = await transport(request(url, { method: 'POST', headers: { 'x-test': 'yes' }, body }));
    expect([response.status, await readText(response.body)]).toEqual([201, '{"price":"1€"}']);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(seen?.head).toBe('POST /v1/x?page=2');
    expect(seen?.body).toBe(body);
    expect(seen?.headers).toMatchObject({
      'x-test': 'yes',
      'content-length': String(Buffer.byteLength(body)),
      'accept-encoding': expect.stringMatching(/^gzip, br/),
    });
    expect(seen?.headers['transfer-encoding']).toBeUndefined();
  });

  it('streams an upload with its content-type and content-length, not chunked', async () => {
    let seen: Seen | undefined;
    const base = await serve((request, res) => {
      seen = request;
      res.end('{}');
    });
    const parts = ['%PDF-1.7 ', 'x'.repeat(70_000), ' %%EOF'];
    const response = await transport(request(base, { method: 'PUT', body: upload(parts) }));
    await readText(response.body);
    expect(seen?.body).toBe(parts.join(''));
    expect(seen?.headers['content-type']).toBe('application/pdf');
    expect(seen?.headers['content-length']).toBe(String(parts.join('').length));
    expect(seen?.headers['transfer-encoding']).toBeUndefined();
  });

  it('rejects when the upload cannot be read, and sends no complete request', async () => {
    let answered = false;
    const base = await serve((_request, res) => {
      answered = true;
      res.end('{}');
    });
    const sending = transport(request(base, { method: 'PUT', body: upload(['a', 'b', 'c'], 1) }));
    await expect(sending).rejects.toThrow('disk read failed');
    expect(answered).toBe(false);
  });

  it('ends an attempt with the signal’s reason: before the answer, in its body, or before it starts', async () => {
    const base = await serve((request, res) => {
      if (request.head === 'GET /slow-body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"a":');
      }
      // /no-answer: never answers.
    });
    const stop = new Error('stop');
    const early = new AbortController();
    const pending = transport(request(new URL('/no-answer', base), { signal: early.signal }));
    early.abort(stop);
    await expect(pending).rejects.toBe(stop);

    const late = new AbortController();
    const response = await transport(request(new URL('/slow-body', base), { signal: late.signal }));
    const reading = readText(response.body);
    late.abort(stop);
    await expect(reading).rejects.toBe(stop);

    const served = sockets.size;
    await expect(transport(request(base, { signal: AbortSignal.abort(stop) }))).rejects.toBe(stop);
    expect(sockets.size).toBe(served);
  });

  it('counts the bytes received against maxResponseBytes', async () => {
    const base = await serve((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('x'.repeat(2_000));
    });
    const response = await transport(request(base));
    await expect(readText(response.body)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('keeps one connection alive between requests, and close() ends it', async () => {
    const base = await serve((_request, res) => res.end('{}'));
    for (let i = 0; i < 3; i += 1) await readText((await transport(request(base))).body);
    expect(sockets.size).toBe(1);
    const [socket] = sockets;
    const closed = new Promise((done) => socket?.once('close', done));
    await transport.close();
    await closed;
    expect(socket?.destroyed).toBe(true);
  });

  it('names a refused connection by its code, and a TLS hello to plain HTTP by its TLS reason', async () => {
    const base = await serve((_request, res) => res.end('{}'));
    await new Promise((done) => server?.close(done));
    server = undefined;
    await expect(transport(request(base))).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const plain = await serve((_request, res) => res.end('{}'));
    const tls = new URL(`https://127.0.0.1:${plain.port}/`);
    const failure = transport(request(tls));
    await expect(failure).rejects.toMatchObject({
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      message: 'TLS failed: wrong version number',
    });
  });
});
