import type { RequestListener, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OptionSpec } from './command.js';
import { CommandError } from './usage-error.js';

/** `--port` / `--host` options of the commands that serve HTTP. */
export function serverOptions(defaultPort: number): Record<'port' | 'host', OptionSpec> {
  return {
    port: {
      type: 'string',
      short: 'p',
      valueName: '<port>',
      description: `Port to listen on; 0 picks a free one (default: ${defaultPort})`,
    },
    host: { type: 'string', valueName: '<host>', description: 'Interface to bind (default: 127.0.0.1)' },
  };
}

/** A started HTTP server and the origin it answers on. */
export interface StartedServer {
  server: Server;
  origin: string;
  close(): Promise<void>;
}

/** Starts `listener` on `host:port`; rejects instead of crashing, naming `--port` for a port in use. */
export async function startServer(
  listener: RequestListener,
  host: string,
  port: number,
): Promise<StartedServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new CommandError(
              `port ${port} on ${host} is in use (EADDRINUSE): choose another with --port <port>, or --port 0 for a free one`,
            )
          : error,
      );
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    origin: `http://${hostname}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
