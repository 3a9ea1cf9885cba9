// From the main entry's module, so the built ./redis entry extends the main entry's class (tsup.config.ts).
import { PartnerEquityError } from '../index.js';

/** Why a Redis store call failed. */
export type RedisStoreErrorCode =
  /** The client is not connected (never connected, reconnecting, or closed). */
  | 'redis_unavailable'
  /** No answer within `commandTimeoutMs`. */
  | 'redis_timeout'
  /** Redis answered with an error, or with a reply the store cannot read. */
  | 'redis_error'
  /** A stored token could not be decrypted: a different `encryptionKey`, or a value not written by the SDK. */
  | 'redis_decrypt_failed';

/**
 * A Redis store could not do what was asked. The token manager then uses a token chain of its own (unless
 * `whenUnavailable: 'fail'`); the webhook receiver answers 5xx so the service retries the delivery.
 * The message names the operation, never a key's value or a token.
 */
export class RedisStoreError extends PartnerEquityError {
  declare readonly code: RedisStoreErrorCode;

  constructor(code: RedisStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, code, options);
  }

  /**
   * `true` for an error waiting does not fix, a wrong `encryptionKey` (`redis_decrypt_failed`): the token
   * manager then logs it at `error` at every look instead of reporting an outage once.
   */
  get configuration(): boolean {
    return this.code === 'redis_decrypt_failed';
  }
}
