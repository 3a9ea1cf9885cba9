import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach } from 'vitest';

/** One connection's view: what arrived, and how to answer with arbitrary (even malformed) bytes. */
export interface RawExchange {
  /** The request head (request line and headers) as received. */
  readonly head: string;
  readonly socket: Socket;
  /** Writes and resolves once the bytes left (or the socket closed: then resolves `false`). */
  write(bytes: string | Uint8Array): Promise<boolean>;
}

/** A TCP server on 127.0.0.1:0 that answers HTTP requests with whatever the test writes. */
export interface RawHttpServer {
  readonly url: string;
  /** Requests received (one per request head seen). */
  readonly requests: string[];
  /** Bytes each answer wrote before its socket closed or it ended, in request order. */
  readonly bytesWritten: number[];
  close(): Promise<void>;
}

/** Answers each request through `answer`; a thrown answer destroys the socket. */
export async function startRawHttpServer(
  answer: (exchange: RawExchange) => Promise<void> | void,
): Promise<RawHttpServer> {
  const requests: string[] = [];
  const bytesWritten: number[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffered.slice(0, end);
      buffered = '';
      requests.push(head);
      const index = bytesWritten.push(0) - 1;
      const write = (bytes: string | Uint8Array) =>
        new Promise<boolean>((resolve) => {
          if (socket.destroyed || socket.writableEnded) return resolve(false);
          const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength;
          socket.write(bytes, (error) => {
            if (error === undefined || error === null)
              bytesWritten[index] = (bytesWritten[index] ?? 0) + size;
            resolve(error === undefined || error === null);
          });
        });
      Promise.resolve(answer({ head, socket, write })).catch(() => socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bytesWritten,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A raw server per test, closed afterwards; `answer` is set by the test before it sends anything. */
export function useRawHttpServer(): {
  server: () => RawHttpServer;
  answer: (handler: (exchange: RawExchange) => Promise<void> | void) => void;
} {
  let current: RawHttpServer | undefined;
  let handler: ((exchange: RawExchange) => Promise<void> | void) | undefined;
  beforeEach(async () => {
    handler = undefined;
    current = await startRawHttpServer((exchange) => {
      if (handler === undefined) throw new Error('raw server: no answer set');
      return handler(exchange);
    });
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    server: () => {
      if (current === undefined) throw new Error('useRawHttpServer(): no server outside a test');
      return current;
    },
    answer: (next) => {
      handler = next;
    },
  };
}

/** An HTTP/1.1 response head; `headers` are written as given (lies included). */
export function head(status: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status}\r\n${lines.join('\r\n')}\r\n\r\n`;
}
