// Serves a Fetch API handler `(Request) => Promise<Response>` on node:http, as `@hono/node-server` or
// `next dev` would; the Hono and Next.js examples use it to receive real deliveries from the fake.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

/** A running server. */
export interface Served {
  origin: string;
  close(): Promise<void>;
}

export async function serveFetch(handle: (request: Request) => Promise<Response>): Promise<Served> {
  const server = createServer(async (req, res) => {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(new URL(req.url ?? '/', origin), {
      method: req.method ?? 'GET',
      headers: Object.entries(req.headers).flatMap(([name, value]) =>
        value === undefined
          ? []
          : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
      ),
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
    const response = await handle(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
