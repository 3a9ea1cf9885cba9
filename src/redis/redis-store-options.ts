import { z } from 'zod';
import { toValidationIssues } from '../core/errors/partner-equity-error.js';
// From the main entry's module: what ./redis throws is the main entry's class (tsup.config.ts).
import { InputValidationError } from '../index.js';
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
  commandTimeoutMs: z.number().finite().positive().optional(),
};

/** `RedisTokenStore`'s own options. */
export const tokenStoreShape = {
  ...redisStoreShape,
  encryptionKey: z.union([encryptionKey, z.array(encryptionKey).min(1)]).optional(),
  allowPlaintext: z.boolean().optional(),
  leaseMs: z.number().int().min(100).optional(),
  whenUnavailable: z.enum(['local', 'fail']).optional(),
};

/** `RedisWebhookIdStore`'s own options. */
export const webhookIdStoreShape = {
  ...redisStoreShape,
  inProgressTtlSeconds: z.number().int().min(1).optional(),
};

/** Checks `options` against `shape`; throws an {@link InputValidationError} naming every bad field. */
export function checkOptions<T>(subject: string, shape: z.ZodRawShape, options: unknown): T {
  if (typeof options !== 'object' || options === null) {
    throw new InputValidationError(subject, [{ path: '', message: 'expected an options object' }]);
  }
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const parsed = z.strictObject(shape).safeParse(defined);
  if (!parsed.success) throw new InputValidationError(subject, toValidationIssues(parsed.error.issues));
  return options as T;
}
