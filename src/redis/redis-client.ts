/**
 * A connected client of the `redis` package (node-redis 4 or later): what `createClient()` returns once
 * `await client.connect()` resolved. Only `sendCommand` and `isReady` are used.
 */
export interface NodeRedisClient {
  /** Sends one command as an argument array (`['SET', key, value]`). */
  sendCommand(args: string[]): Promise<unknown>;
  readonly isReady?: boolean;
}

/** A client of the `ioredis` package (5 or later): `new Redis(url)`. Only `call` and `status` are used. */
export interface IoRedisClient {
  /** Sends one command by name with its arguments. */
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  readonly status?: string;
}

/** A Redis client you created and own (the stores never connect, quit or configure it). */
export type RedisClient = NodeRedisClient | IoRedisClient;

/** How a store sends one command, and whether the client can take one now. */
export interface RedisTransport {
  /** `redis` or `ioredis`, for messages. */
  readonly library: 'redis' | 'ioredis';
  send(args: string[]): Promise<unknown>;
  /** False while the client is closed or reconnecting: the store then fails at once instead of queueing. */
  ready(): boolean;
}

/** ioredis states in which a command would wait in the offline queue for a connection that is gone. */
const IOREDIS_DOWN = new Set(['reconnecting', 'close', 'end']);

/** Whether `value` looks like a client of either library. */
export function isRedisClient(value: unknown): value is RedisClient {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate['call'] === 'function' || typeof candidate['sendCommand'] === 'function';
}

/**
 * The transport over a client of either library. ioredis is recognised by `call` (its `sendCommand` takes
 * a Command object); node-redis by `sendCommand` taking an argument array.
 */
export function redisTransport(client: RedisClient): RedisTransport {
  if ('call' in client && typeof client.call === 'function') {
    const io = client;
    return {
      library: 'ioredis',
      send: ([command = '', ...args]) => io.call(command, ...args),
      ready: () => io.status === undefined || !IOREDIS_DOWN.has(io.status),
    };
  }
  const node = client as NodeRedisClient;
  return {
    library: 'redis',
    send: (args) => node.sendCommand(args),
    ready: () => node.isReady !== false,
  };
}
