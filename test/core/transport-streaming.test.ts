import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../src/core/errors/errors.js';
import { nodeHttpTransport } from '../../src/core/transport/node-http.js';
import {
  fetchTransport,
  readText,
  type Transport,
  undiciTransport,
} from '../../src/core/transport/transport.js';

// A transport's body is a stream read as it is iterated, not a promise of the whole: a reader gets the first
// bytes while the server still holds the rest, and the server waits on the reader.
let server: Server | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

const transports: Record<string, () => Transport> = {
  'node:http': () => {
    const transport = nodeHttpTransport();
    closers.push(transport.close);
    return transport;
  },
  undici: () => {
    const transport = undiciTransport();
    closers.push(transport.close);
    return transport;
  },
  fetch: () => fetchTransport(globalThis.fetch),
};

describe.each(Object.entries(transports))('the %s transport streams a body', (_name, transport) => {
  it('hands over the first bytes before the server has sent the rest', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((done) => {
      release = done;
    });
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"first":');
      void released.then(() => res.end('true}'));
    });
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`);
    const response = await transport()({
      method: 'GET',
      url,
      headers: {},
      signal: new AbortController().signal,
    });
    const chunks: string[] = [];
    for await (const chunk of response.body) {
      chunks.push(Buffer.from(chunk).toString());
      // The server ends only once the first part was read.
      release();
    }
    expect(chunks).toEqual(['{"first":', 'true}']);
  });

  it('refuses a compressed answer that declares more bytes than the limit, unread', async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(11 * 1024 * 1024) });
      // The rest never comes: only a transport that believes the declared length answers.
      res.write(zlib.gzipSync('{}'));
    });
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`);
    const response = await transport()({
      method: 'GET',
      url,
      headers: {},
      signal: new AbortController().signal,
    });
    await expect(readText(response.body)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});
