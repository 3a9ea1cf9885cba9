import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { toRequest } from '../testing/loopback-server.js';

/**
 * Adapts a Fetch-style handler to `node:http`, addressing each `Request` to `origin` (the URL the user
 * was given, so the fake checks assertion `aud` against it) and keeping at most `maxBodyBytes` of a body,
 * as the fake's own loopback server does. A `Response.error()` (the fake's injected dropped connection)
 * destroys the socket without an answer.
 */
export function nodeListener(
  origin: () => string,
  maxBodyBytes: () => number,
  handle: (request: Request) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    res.on('finish', () => req.resume());
    void (async () => {
      const response = await handle(toRequest(req, res, origin(), maxBodyBytes()));
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
