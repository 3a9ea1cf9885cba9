import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';

/** One request as it arrived on the socket. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  /** Path and query exactly as sent. */
  rawUrl: string;
  /** Header names are lower-case. */
  headers: IncomingHttpHeaders;
  /** The raw body bytes. */
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
  /** The client's port: equal ports mean a reused keep-alive connection. */
  remotePort: number | undefined;
}

/** What the server answers. `hang` never answers; `destroy` drops the connection. */
export type Reply =
  | {
      status?: number;
      headers?: Record<string, string>;
      /**
       * Objects are sent as JSON (with `content-type: application/json` unless headers say otherwise). An
       * async iterable is streamed: the head goes out first, then each piece as the iterable yields it.
       */
      body?: unknown;
    }
  | 'hang'
  | 'destroy';

/** Computes the reply from the request. */
export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

/** A real HTTP server on a loopback port that records every request and answers from a queue. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Queues replies (or handlers), used one per request in order. */
  reply(...replies: (Reply | Handler)[]): void;
  /** Answers every request the queue does not cover. */
  fallback(handler: Handler | undefined): void;
  /** Requests that found neither a queued reply nor a fallback (the test fails on teardown). */
  readonly unhandled: RecordedRequest[];
  /** Replies still queued. */
  readonly pending: number;
  close(): Promise<void>;
}

/** Starts a {@link TestServer} on port 0. Close it when done (or use {@link useTestServer}). */
export async function startTestServer(): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const queue: (Reply | Handler)[] = [];
  let fallback: Handler | undefined;

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      rawUrl: req.url ?? '',
      headers: req.headers,
      body,
      text: body.toString('utf8'),
      remotePort: req.socket.remotePort,
    };
    requests.push(recorded);
    const next = queue.shift() ?? fallback;
    if (next === undefined) {
      unhandled.push(recorded);
      send(res, {
        status: 599,
        body: { code: 'unhandled_in_test', detail: `${recorded.method} ${recorded.path}` },
      });
      return;
    }
    const reply = typeof next === 'function' ? await next(recorded) : next;
    if (reply === 'hang') return;
    if (reply === 'destroy') {
      req.socket.destroy();
      return;
    }
    send(res, reply);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unhandled,
    reply: (...replies) => {
      queue.push(...replies);
    },
    fallback: (handler) => {
      fallback = handler;
    },
    get pending() {
      return queue.length;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function send(res: ServerResponse, reply: Exclude<Reply, 'hang' | 'destroy'>): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload: string | Buffer | undefined;
  if (reply.body === undefined) payload = undefined;
  else if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) payload = reply.body;
  else {
    payload = JSON.stringify(reply.body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  res.writeHead(reply.status ?? 200, headers);
  if (reply.body !== null && typeof reply.body === 'object' && Symbol.asyncIterator in reply.body) {
    res.flushHeaders();
    void (async () => {
      for await (const piece of reply.body as AsyncIterable<string>) res.write(piece);
      res.end();
    })();
    return;
  }
  res.end(payload);
}

/**
 * A fresh {@link TestServer} per test, closed afterwards. The test fails if a request found no reply, or
 * if queued replies were left unused (the code under test sent fewer requests than the test expected).
 */
export function useTestServer(): () => TestServer {
  let current: TestServer | undefined;
  beforeEach(async () => {
    current = await startTestServer();
  });
  afterEach(async () => {
    const server = current;
    current = undefined;
    if (server === undefined) return;
    await server.close();
    if (server.unhandled.length > 0) {
      const list = server.unhandled.map((r) => `${r.method} ${r.rawUrl}`).join(', ');
      throw new Error(`test server: unhandled request(s): ${list}`);
    }
    if (server.pending > 0) throw new Error(`test server: ${server.pending} queued reply(ies) never used`);
  });
  return () => {
    if (current === undefined) throw new Error('useTestServer(): no server outside a test');
    return current;
  };
}
