// A minimal loopback server that answers with responses captured from the fake API, byte for byte, after
// the same bearer check. Started by spawn-replay-server.ts in its own process. The fake does real work per
// request (routing, validation, token lookup, state) and caps throughput around a thousand requests a
// second on these machines, which hides client costs; this server costs a few microseconds a request, so a
// client's own overhead shows in the throughput. With `delayMs` it answers after that long (real timers),
// so a client is measured as a partner would see it over a network; with `bytesPerSecond` the answers trickle
// over one shared link of that bandwidth, and with `gzip` they are compressed for a client that asks.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { CapturedResponse, ReplayConfig } from './protocol.js';

const config = JSON.parse(process.argv[2] ?? '{}') as ReplayConfig;
const routes = new Map<string, CapturedResponse & { buffer: Buffer }>(
  Object.entries(config.routes).map(([key, captured]) => [
    key,
    { ...captured, buffer: Buffer.from(captured.body) },
  ]),
);
const expected = `Bearer ${config.token}`;
const publicRoutes = new Set(config.publicRoutes ?? []);
const delayMs = config.delayMs ?? 0;
const INVESTORS = 'POST /v1/investors';
const unauthorized = Buffer.from('{"code":"invalid_token","message":"Invalid or expired access token"}');
let people = 0;

/** The fake's answer to new rows: each row `created` with a fresh person id, in the rows' order. */
function investorsAnswer(body: string): Buffer {
  const { investors } = JSON.parse(body) as { investors: { partnerInvestorId: string }[] };
  const results = investors.map(({ partnerInvestorId }, i) => ({
    partnerInvestorId,
    status: 'created',
    servicePersonId: `per_${people + i}`,
  }));
  people += investors.length;
  return Buffer.from(JSON.stringify({ results }));
}

/** Slices an answer is sent in over the limited link, and when that link is next free. */
const SLICE_BYTES = 16 * 1024;
let linkFreeAt = 0;

// Writes `body` slice by slice, each once the shared link has carried the bytes booked before it (slices
// of concurrent answers interleave, as on one link).
async function trickle(res: ServerResponse, body: Buffer, bytesPerSecond: number): Promise<void> {
  for (let offset = 0; offset < body.length; offset += SLICE_BYTES) {
    const slice = body.subarray(offset, offset + SLICE_BYTES);
    linkFreeAt = Math.max(performance.now(), linkFreeAt) + (slice.length * 1000) / bytesPerSecond;
    await sleep(Math.max(0, linkFreeAt - performance.now()));
    res.write(slice);
  }
  res.end();
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  plain: Buffer,
): void {
  const send = () => {
    const compress = config.gzip === true && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const body = compress ? gzipSync(plain) : plain;
    const coding: Record<string, string> = compress ? { 'content-encoding': 'gzip' } : {};
    res.writeHead(status, { ...headers, ...coding, 'content-length': body.length });
    if (config.bytesPerSecond === undefined) res.end(body);
    else void trickle(res, body, config.bytesPerSecond);
  };
  if (delayMs > 0) setTimeout(send, delayMs);
  else send();
}

// When each route was last asked for, as epoch milliseconds (the cold-start scenario's breakdown).
const arrivals: Record<string, number> = {};

const server = createServer((req, res) => {
  const key = `${req.method} ${req.url}`;
  arrivals[key] = performance.timeOrigin + performance.now();
  const route = routes.get(key);
  const echo = config.investors === true && key === INVESTORS;
  // Request bodies (bulk posts) are read to the end before answering, as any server would.
  const chunks: Buffer[] = [];
  if (echo) req.on('data', (chunk: Buffer) => chunks.push(chunk));
  else req.resume();
  req.on('end', () => {
    if (!publicRoutes.has(key) && req.headers.authorization !== expected) {
      answer(req, res, 401, { 'content-type': 'application/json' }, unauthorized);
      return;
    }
    if (echo) {
      answer(
        req,
        res,
        200,
        { 'content-type': 'application/json' },
        investorsAnswer(Buffer.concat(chunks).toString()),
      );
      return;
    }
    if (route === undefined) {
      answer(req, res, 404, {}, Buffer.alloc(0));
      return;
    }
    answer(req, res, route.status, route.headers, route.buffer);
  });
});
server.keepAliveTimeout = 60_000;
// Connections opened so far: a client that does not reuse keep-alive connections shows here.
let connections = 0;
server.on('connection', () => {
  connections += 1;
});
process.on('message', (message: { cmd?: string }) =>
  process.send?.(
    message.cmd === 'arrivals' ? { type: 'arrivals', arrivals } : { type: 'connections', connections },
  ),
);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', baseUrl: `http://127.0.0.1:${port}` });
});
process.on('disconnect', () => process.exit(0));
