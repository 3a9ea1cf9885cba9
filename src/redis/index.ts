/**
 * Stores for running many instances on one Redis: {@link RedisTokenStore} (one token chain for all your
 * processes), {@link RedisWebhookIdStore} (each webhook handled once across all your receivers) and
 * {@link RedisRateLimitStore} (one rate budget for the whole fleet). Works
 * with the `redis` (node-redis) and `ioredis` packages: install the one you use; you create, connect and
 * close the client.
 *
 * @module @partner-equity/sdk/redis
 */
export type { IoRedisClient, NodeRedisClient, RedisClient } from './redis-client.js';
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
export { RedisStoreError, type RedisStoreErrorCode } from './redis-store-error.js';
export type { RedisStoreOptions } from './redis-store-options.js';
export { RedisTokenStore, type RedisTokenStoreOptions } from './redis-token-store.js';
export { RedisWebhookIdStore, type RedisWebhookIdStoreOptions } from './redis-webhook-id-store.js';
export type { EncryptionKey } from './token-cipher.js';
