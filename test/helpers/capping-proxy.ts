import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** An HTTP forward proxy (as `undici.ProxyAgent` speaks to one) whose JSON body cap can change between runs. */
export interface CappingProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** JSON bodies over this many bytes are answered 413 with an HTML page, as nginx does; `undefined`: no cap. */
  cap: number | undefined;
  close(): Promise<void>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'host', 'upgrade'];

export async function startCappingProxy(): Promise<CappingProxy> {
  const state: { cap: number | undefined } = { cap: undefined };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (
      state.cap !== undefined &&
      body.length > state.cap &&
      /json/.test(req.headers['content-type'] ?? '')
    ) {
      res.writeHead(413, { 'content-type': 'text/html' });
      res.end('<html><head><title>413 Request Entity Too Large</title></head></html>');
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.includes(name)),
    ) as Record<string, string>;
    const answer = await request(req.url ?? '/', {
      method: req.method as 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const out = Buffer.from(await answer.body.arrayBuffer());
    const back = Object.fromEntries(
      Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.includes(name)),
    ) as Record<string, string>;
    res.writeHead(answer.statusCode, back);
    res.end(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get cap() {
      return state.cap;
    },
    set cap(value) {
      state.cap = value;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
