// A minimal loopback server that answers with responses captured from the fake API, byte for byte, after
// the same bearer check. Started by spawn-replay-server.ts in its own process. The fake does real work per
// request (routing, validation, token lookup, state) and caps throughput around a thousand requests a
// second on these machines, which hides client costs; this server costs a few microseconds a request, so a
// client's own overhead shows in the throughput. With `delayMs` it answers after that long (real timers),
// so a client is measured as a partner would see it over a network.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

function answer(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void {
  const send = () => {
    res.writeHead(status, { ...headers, 'content-length': body.length });
    res.end(body);
  };
  if (delayMs > 0) setTimeout(send, delayMs);
  else send();
}

const server = createServer((req, res) => {
  const key = `${req.method} ${req.url}`;
  const route = routes.get(key);
  const echo = config.investors === true && key === INVESTORS;
  // Request bodies (bulk posts) are read to the end before answering, as any server would.
  const chunks: Buffer[] = [];
  if (echo) req.on('data', (chunk: Buffer) => chunks.push(chunk));
  else req.resume();
  req.on('end', () => {
    if (!publicRoutes.has(key) && req.headers.authorization !== expected) {
      answer(res, 401, { 'content-type': 'application/json' }, unauthorized);
      return;
    }
    if (echo) {
      answer(
        res,
        200,
        { 'content-type': 'application/json' },
        investorsAnswer(Buffer.concat(chunks).toString()),
      );
      return;
    }
    if (route === undefined) {
      answer(res, 404, {}, Buffer.alloc(0));
      return;
    }
    answer(res, route.status, route.headers, route.buffer);
  });
});
server.keepAliveTimeout = 60_000;
// Connections opened so far: a client that does not reuse keep-alive connections shows here.
let connections = 0;
server.on('connection', () => {
  connections += 1;
});
process.on('message', () => process.send?.({ type: 'connections', connections }));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', baseUrl: `http://127.0.0.1:${port}` });
});
process.on('disconnect', () => process.exit(0));
