import { z } from 'zod';
// The main entry's helper, so what ./redis throws is the main entry's class (tsup.config.ts: one build).
import { checkOptions as checkShared, MAX_TIMER_MS, milliseconds } from '../core/check-options.js';
import { isRedisClient, type RedisClient } from './redis-client.js';
import { type EncryptionKey, keyBytes } from './token-cipher.js';

/** Options both Redis stores take. */
export interface RedisStoreOptions {
  /**
   * Your client, connected: `redis` (node-redis 4+, after `await client.connect()`) or `ioredis` (5+). The
   * store only sends commands; connecting, reconnecting and closing stay yours. Attach an `error` listener
   * (node-redis and ioredis emit `error` on every lost connection).
   */
  client: RedisClient;
  /**
   * Prefix of every key the store writes.
   * @default 'partner-equity:'
   */
  keyPrefix?: string | undefined;
  /**
   * Real milliseconds a command may take before the store gives up on it and reports Redis unavailable.
   * @default 2000
   */
  commandTimeoutMs?: number | undefined;
}

export const DEFAULT_KEY_PREFIX = 'partner-equity:';
export const DEFAULT_COMMAND_TIMEOUT_MS = 2000;

const encryptionKey = z.custom<EncryptionKey>(
  (value) => (typeof value === 'string' || value instanceof Uint8Array) && keyBytes(value) !== undefined,
  { message: 'must be a 32-byte key: bytes, or their base64 text' },
);

/** The checks every Redis store option gets. */
export const redisStoreShape = {
  client: z.custom<RedisClient>(isRedisClient, {
    message: 'must be a client of the redis (node-redis) or ioredis package',
  }),
  keyPrefix: z.string().optional(),
  commandTimeoutMs: milliseconds().optional(),
};

/** `RedisTokenStore`'s own options. */
export const tokenStoreShape = {
  ...redisStoreShape,
  encryptionKey: z.union([encryptionKey, z.array(encryptionKey).min(1)]).optional(),
  allowPlaintext: z.boolean().optional(),
  leaseMs: z.number().int().min(100).max(MAX_TIMER_MS).optional(),
  whenUnavailable: z.enum(['local', 'fail']).optional(),
};

/** `RedisWebhookIdStore`'s own options. */
export const webhookIdStoreShape = {
  ...redisStoreShape,
  inProgressTtlSeconds: z.number().int().min(1).optional(),
};

/** Checks `options` against `shape`; throws an {@link InputValidationError} naming every bad field. */
export function checkOptions<T>(subject: string, shape: z.ZodRawShape, options: unknown): T {
  return checkShared<T>(subject, z.strictObject(shape), options);
}
