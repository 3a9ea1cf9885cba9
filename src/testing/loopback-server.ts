import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * The request body as a web stream that stops keeping bytes past `maxBytes + 1` (enough for the handler to
 * see "too large") while still draining the socket, so oversized uploads never pile up in memory.
 */
function bodyStream(
  req: IncomingMessage,
  maxBytes: number,
  finished: () => boolean,
): ReadableStream<Uint8Array> {
  let kept = 0;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (cancelled || finished() || kept > maxBytes) return;
          const take = Math.min(chunk.byteLength, maxBytes + 1 - kept);
          kept += take;
          controller.enqueue(new Uint8Array(chunk.subarray(0, take)));
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.on('end', () => {
          if (!cancelled && !finished()) controller.close();
        });
        req.on('error', (error) => {
          if (!cancelled) controller.error(error);
        });
      },
      pull() {
        req.resume();
      },
      // The handler stopped reading (a body over its own cap): the rest is drained, never kept.
      cancel() {
        cancelled = true;
        req.resume();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 16 }),
  );
}

/** The Fetch `Request` of a `node:http` request, its body kept up to `maxBytes` (see {@link bodyStream}). */
export function toRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  maxBytes: number,
): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  // A request that crossed a socket always has a Host (empty for HTTP/1.0 without one): checks on Host
  // (the admin API's) then tell it from an in-process (MSW) request, which has none.
  if (!headers.has('host')) headers.set('host', '');
  const abort = new AbortController();
  // The client went away before we answered: end held (delayed) responses early.
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    signal: abort.signal,
    ...(hasBody ? { body: bodyStream(req, maxBytes, () => res.writableFinished), duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Serves `handle` on 127.0.0.1, port 0. A `Response.error()` from the handler (an injected dropped
 * connection) destroys the socket without a response. After each response any unread request body is
 * drained, so keep-alive connections stay usable.
 */
export async function startLoopbackServer(
  handle: (request: Request) => Promise<Response>,
  maxBodyBytes: number,
): Promise<LoopbackServer> {
  let origin = '';
  const server = createServer((req, res) => {
    res.on('finish', () => req.resume());
    void (async () => {
      const response = await handle(toRequest(req, res, origin, maxBodyBytes));
      if (response.type === 'error') {
        req.socket.destroy();
        return;
      }
      if (res.destroyed) return;
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      res.writeHead(response.status, headers);
      if (response.body === null) res.end();
      else await pipeline(Readable.fromWeb(response.body as never), res);
    })().catch(() => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"code":"internal_error","detail":"Fake API loopback failure","errorId":"err_loopback"}');
      } else {
        res.destroy();
      }
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
