import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../src/core/errors/errors.js';
import { readText, undiciTransport } from '../../src/core/transport/transport.js';

// The default transport hands over undici's body stream, bounded; `readText` reads it: these pin what
// undici's `body.text()` did (a body in pieces, a BOM, a query string, abort at any point, the byte cap).
let server: Server | undefined;

afterEach(async () => {
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<URL> {
  server = createServer(handler);
  await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
  return new URL(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`);
}

const euro = Buffer.from('€', 'utf8');

describe('undici transport', () => {
  it('reads a body sent in pieces (a character split between them, a BOM first) like body.text()', async () => {
    let seen = '';
    const base = await serve((req, res) => {
      seen = req.url ?? '';
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': ' req_1 ' });
      res.write(Buffer.from([0xef, 0xbb, 0xbf]));
      res.write(Buffer.concat([Buffer.from('{"price":"1'), euro.subarray(0, 1)]));
      setTimeout(() => res.end(Buffer.concat([euro.subarray(1), Buffer.from('"}')])), 5);
    });
    const transport = undiciTransport();
    try {
      const response = await transport({
        method: 'GET',
        url: new URL('/v1/x?page=2', base),
        headers: {},
        signal: new AbortController().signal,
      });
      expect(seen).toBe('/v1/x?page=2');
      expect(response.status).toBe(200);
      expect(await readText(response.body)).toBe('{"price":"1€"}');
      expect(response.headers.get('x-request-id')).toBe('req_1');
    } finally {
      await transport.close();
    }
  });

  it('takes the fetch path when the dispatcher has no dispatch (Bun’s own undici)', async () => {
    let seen = '';
    const base = await serve((req, res) => {
      seen = `${req.method} ${req.url} ${req.headers['x-test']}`;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const transport = undiciTransport({ dispatcher: {} as never });
    const response = await transport({
      method: 'POST',
      url: new URL('/v1/y?q=1', base),
      headers: { 'x-test': 'yes' },
      body: '{}',
      signal: new AbortController().signal,
    });
    expect([response.status, await readText(response.body), seen]).toEqual([
      201,
      '{"ok":true}',
      'POST /v1/y?q=1 yes',
    ]);
    await transport.close();
  });

  it('rejects with the signal’s reason when aborted mid-body, and counts bytes against the cap', async () => {
    const base = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(req.url === '/big' ? 'x'.repeat(2_000) : '{"a":');
    });
    const transport = undiciTransport({ maxResponseBytes: 1_000 });
    try {
      const controller = new AbortController();
      const pending = transport({
        method: 'GET',
        url: new URL('/slow', base),
        headers: {},
        signal: controller.signal,
      }).then((response) => readText(response.body));
      setTimeout(() => controller.abort(new Error('stop')), 20);
      await expect(pending).rejects.toThrow('stop');
      const big = transport({
        method: 'GET',
        url: new URL('/big', base),
        headers: {},
        signal: new AbortController().signal,
      }).then((response) => readText(response.body));
      await expect(big).rejects.toBeInstanceOf(ResponseTooLargeError);
    } finally {
      await transport.close();
    }
  });
});
