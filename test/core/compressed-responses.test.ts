import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotFoundError, ResponseTooLargeError } from '../../src/core/errors/errors.js';
import { nodeHttpTransport } from '../../src/core/transport/node-http.js';
import { fetchTransport, type Transport, undiciTransport } from '../../src/core/transport/transport.js';
import { testRequester } from '../helpers/requester-factory.js';

// A server that compresses when asked, as a gateway in front of the API would: the transport asks for
// compressed answers, decodes them, and bounds what they inflate to.
const LIMIT = 64 * 1024;
const encoders: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: zlib.gzipSync,
  br: zlib.brotliCompressSync,
  // zstd where this Node has it (24; 22 from 22.15).
  ...(typeof zlib.zstdCompressSync === 'function' && { zstd: zlib.zstdCompressSync }),
};

let server: Server | undefined;
const seen: IncomingHttpHeaders[] = [];
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
  seen.length = 0;
});

async function serve(handler: (url: URL, res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    seen.push(req.headers);
    handler(new URL(req.url ?? '/', 'http://localhost'), res);
  });
  await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const transports: Record<string, () => Transport> = {
  'node:http': () => {
    const transport = nodeHttpTransport({ maxResponseBytes: LIMIT });
    closers.push(transport.close);
    return transport;
  },
  undici: () => {
    const transport = undiciTransport({ maxResponseBytes: LIMIT });
    closers.push(transport.close);
    return transport;
  },
  fetch: () => fetchTransport(globalThis.fetch, { maxResponseBytes: LIMIT }),
};

const Rows = z.object({ rows: z.array(z.object({ id: z.number(), status: z.string() })) });
const rows = { rows: Array.from({ length: 500 }, (_, id) => ({ id, status: 'created' })) };

function get(baseUrl: string, transport: Transport, path: string) {
  return testRequester(baseUrl, { transport, maxRetries: 0, timeout: 60_000 }).request({
    method: 'GET',
    path,
    auth: 'none',
    response: Rows,
  });
}

describe.each(Object.entries(transports))('compressed answers over the %s transport', (name, transport) => {
  it('asks for compressed answers and parses each (fetch asks for what it decodes itself)', async () => {
    const json = Buffer.from(JSON.stringify(rows));
    const baseUrl = await serve((url, res) => {
      const coding = url.searchParams.get('coding') ?? 'gzip';
      const status = url.pathname === '/missing' ? 404 : 200;
      const body = status === 404 ? Buffer.from('{"code":"not_found","detail":"no such row"}') : json;
      res.writeHead(status, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end((encoders[coding] as (bytes: Buffer) => Buffer)(body));
    });
    const codings = name === 'undici' ? Object.keys(encoders) : ['gzip', 'br'];
    for (const coding of codings) {
      await expect(get(baseUrl, transport(), `/rows?coding=${coding}`)).resolves.toEqual(rows);
    }
    const error = await get(baseUrl, transport(), '/missing?coding=br').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toContain('no such row');
    const asked = seen.map((headers) => headers['accept-encoding']);
    expect(asked).toHaveLength(codings.length + 1);
    if (name === 'undici') expect(new Set(asked)).toEqual(new Set([Object.keys(encoders).join(', ')]));
    else for (const value of asked) expect(value).toMatch(/\bgzip\b/);
  });

  it('takes an empty body marked as gzip (a 204, or Content-Length: 0) as empty', async () => {
    const baseUrl = await serve((url, res) => {
      const status = url.pathname === '/no-content' ? 204 : 200;
      res.writeHead(status, { 'content-encoding': 'gzip', 'content-length': '0' });
      res.end();
    });
    for (const path of ['/no-content', '/empty']) {
      const call = testRequester(baseUrl, { transport: transport(), maxRetries: 0 }).request({
        method: 'DELETE',
        path,
        auth: 'none',
        response: z.unknown(),
      });
      await expect(call).resolves.toBeUndefined();
    }
  });

  it('refuses a small gzip that inflates past maxResponseBytes, without reading the rest', async () => {
    // 1 MiB of zeros gzips to about 1 KB; the server then never ends the body, so only a reader that stops
    // at the limit can answer.
    const bomb = zlib.gzipSync(Buffer.alloc(1024 * 1024));
    const baseUrl = await serve((_url, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.write(bomb);
    });
    expect(bomb.byteLength).toBeLessThan(LIMIT);
    await expect(get(baseUrl, transport(), '/bomb')).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});
