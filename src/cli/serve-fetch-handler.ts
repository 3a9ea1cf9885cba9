import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Adapts a Fetch-style handler to `node:http`, addressing each `Request` to `origin` (the URL the user
 * was given, so the fake checks assertion `aud` against it). A `Response.error()` (the fake's injected
 * dropped connection) destroys the socket without an answer.
 */
export function nodeListener(
  origin: () => string,
  handle: (request: Request) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    res.on('finish', () => req.resume());
    void (async () => {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const method = req.method ?? 'GET';
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: abort.signal };
      if (method !== 'GET' && method !== 'HEAD') {
        init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
        init.duplex = 'half';
      }
      const response = await handle(new Request(new URL(req.url ?? '/', origin()), init));
      if (response.type === 'error') {
        req.socket.destroy();
        return;
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) res.end();
      else await pipeline(Readable.fromWeb(response.body as never), res);
    })().catch(() => {
      if (res.headersSent || res.destroyed) res.destroy();
      else res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"internal_error"}');
    });
  };
}
