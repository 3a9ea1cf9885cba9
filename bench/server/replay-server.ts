// A minimal loopback server that answers with responses captured from the fake API, byte for byte, after
// the same bearer check. Started by spawn-replay-server.ts in its own process. The fake does real work per
// request (routing, validation, token lookup, state) and caps throughput around a thousand requests a
// second on these machines, which hides client costs; this server costs a few microseconds a request, so a
// client's own overhead shows in the throughput.
import { createServer } from 'node:http';
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
const unauthorized = Buffer.from('{"code":"invalid_token","message":"Invalid or expired access token"}');

const server = createServer((req, res) => {
  const key = `${req.method} ${req.url}`;
  const route = routes.get(key);
  // Request bodies (bulk posts) are read to the end before answering, as any server would.
  req.resume();
  req.on('end', () => {
    if (!publicRoutes.has(key) && req.headers.authorization !== expected) {
      res.writeHead(401, { 'content-type': 'application/json', 'content-length': unauthorized.length });
      res.end(unauthorized);
      return;
    }
    if (route === undefined) {
      res.writeHead(404, { 'content-length': 0 });
      res.end();
      return;
    }
    res.writeHead(route.status, { ...route.headers, 'content-length': route.buffer.length });
    res.end(route.buffer);
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
