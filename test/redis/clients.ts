import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { RedisClient } from '../../src/redis/index.js';

/** The two client libraries the Redis stores support. */
export type ClientLibrary = 'redis' | 'ioredis';
export const LIBRARIES: readonly ClientLibrary[] = ['redis', 'ioredis'];

/** A connected client as a partner makes one, with the `error` listener both libraries need. */
export interface TestClient {
  library: ClientLibrary;
  client: RedisClient;
  /** Raw commands for assertions (what is in Redis). */
  command(...args: string[]): Promise<unknown>;
  /** Resolves once the client is connected and ready again (after a server restart). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Connects a client of `library` to `url` (a fast reconnect, so restart tests stay short). */
export async function connectClient(library: ClientLibrary, url: string): Promise<TestClient> {
  if (library === 'redis') {
    const client = createClient({ url, socket: { reconnectStrategy: () => 50, connectTimeout: 2000 } });
    client.on('error', () => undefined);
    await client.connect();
    return {
      library,
      client,
      // Not queued while disconnected: a probe of a stopped server fails at once.
      command: (...args) =>
        client.isReady ? client.sendCommand(args) : Promise.reject(new Error('redis client not ready')),
      ready: () =>
        client.isReady ? Promise.resolve() : new Promise((resolve) => client.once('ready', () => resolve())),
      close: async () => {
        client.destroy();
      },
    };
  }
  const client = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('end', () => reject(new Error('ioredis could not connect')));
  });
  return {
    library,
    client,
    command: (command, ...args) => client.call(command ?? '', ...args),
    ready: () =>
      client.status === 'ready'
        ? Promise.resolve()
        : new Promise((resolve) => client.once('ready', () => resolve())),
    close: async () => {
      client.disconnect();
    },
  };
}
