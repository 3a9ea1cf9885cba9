import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy that keeps every byte in both directions: what the SDK sent on the wire is where
 * the test learns the secrets (assertions, tokens) it then looks for everywhere else. Start it first
 * (its origin becomes the fake's `baseUrl`), then `forwardTo(port)`.
 */
export interface RecordingProxy {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  forwardTo(port: number): void;
  /** Everything the clients sent, as latin1 text. */
  sent(): string;
  /** Everything the server answered, as latin1 text. */
  received(): string;
  close(): Promise<void>;
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const up: Buffer[] = [];
  const down: Buffer[] = [];
  const sockets = new Set<Socket>();
  let target: number | undefined;
  const server: Server = createServer((client) => {
    if (target === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => up.push(chunk));
    upstream.on('data', (chunk: Buffer) => down.push(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    forwardTo: (next) => {
      target = next;
    },
    sent: () => Buffer.concat(up).toString('latin1'),
    received: () => Buffer.concat(down).toString('latin1'),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
