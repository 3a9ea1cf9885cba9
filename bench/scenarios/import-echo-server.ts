// A loopback API that answers each chunk at once, for scenario 7 (import-csv.ts): a token for any
// assertion, and for `POST /v1/investors` a `created` result per row, keyed by the row's own id. The fake
// does real work per row and keeps every person, and the replay server (bench/server/) answers with fixed
// bodies that cannot name the rows sent, so neither measures the command itself.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const TOKEN = JSON.stringify({
  accessToken: 'bench-access-token',
  refreshToken: 'bench-refresh-token',
  tokenType: 'Bearer',
  expiresIn: 3600,
  refreshExpiresIn: 2_592_000,
});

/** A running echo server; `chunks` counts the investor requests it answered. */
export interface EchoServer {
  baseUrl: string;
  chunks(): number;
  close(): Promise<void>;
}

/**
 * Starts the echo server. `maxBodyBytes`: a proxy's cap in front of it, a larger JSON body answered 413 with
 * an HTML page (as `FakePartnerEquity`'s option of that name does).
 */
export async function startEchoServer(maxBodyBytes = Number.POSITIVE_INFINITY): Promise<EchoServer> {
  let chunks = 0;
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const json = (status: number, body: string) => {
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      };
      if (req.method === 'POST' && req.url === '/v1/oauth2/tokens') return json(201, TOKEN);
      if (req.method !== 'POST' || req.url !== '/v1/investors') return json(404, '{"code":"not_found"}');
      const body = Buffer.concat(parts);
      if (body.byteLength > maxBodyBytes) {
        res.writeHead(413, { 'content-type': 'text/html' });
        return res.end('<html><body><h1>413 Request Entity Too Large</h1></body></html>');
      }
      chunks += 1;
      const { investors } = JSON.parse(body.toString('utf8')) as {
        investors: { partnerInvestorId: string }[];
      };
      const results = investors.map(({ partnerInvestorId }) => ({
        partnerInvestorId,
        status: 'created',
        servicePersonId: `per_${partnerInvestorId}`,
      }));
      json(200, JSON.stringify({ results }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    chunks: () => chunks,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
