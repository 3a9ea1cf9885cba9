import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { RedisStoreError } from './redis-store-error.js';

/** A 32-byte AES-256 key: raw bytes, or their base64 / base64url text. */
export type EncryptionKey = Uint8Array | string;

const PLAIN = 'p1:';
const SEALED = 'e1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Reads a key option into 32 bytes, or `undefined` when it is not a 32-byte key. */
export function keyBytes(key: EncryptionKey): Buffer | undefined {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'base64') : Buffer.from(key);
  return bytes.length === 32 ? bytes : undefined;
}

interface Key {
  id: string;
  bytes: Buffer;
}

/**
 * How token values are written into Redis: with keys, AES-256-GCM under the first key, a random 96-bit IV per
 * value, and the value's place (Redis key, field and generation) as additional data, so a value cannot be
 * moved to another place or replayed into a later generation; every key decrypts (rotation). Without keys,
 * marked plain JSON. A sealed value is never read without a key, nor a plain one with keys.
 */
export class TokenCipher {
  readonly #keys: readonly Key[];

  constructor(keys: readonly Buffer[]) {
    this.#keys = keys.map((bytes) => ({
      id: createHash('sha256')
        .update('partner-equity token key id\n')
        .update(bytes)
        .digest('hex')
        .slice(0, 8),
      bytes,
    }));
  }

  get encrypted(): boolean {
    return this.#keys.length > 0;
  }

  seal(plain: string, place: string): string {
    const key = this.#keys[0];
    if (key === undefined) return PLAIN + plain;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.bytes, iv).setAAD(Buffer.from(place));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED}${key.id}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  open(stored: string, place: string): string {
    if (!this.encrypted) {
      if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
      throw decryptError(
        stored.startsWith(SEALED)
          ? 'the stored tokens are encrypted and no encryptionKey is configured'
          : 'unknown format',
      );
    }
    if (!stored.startsWith(SEALED)) throw decryptError('not encrypted, but an encryptionKey is configured');
    const [id, data = ''] = stored.slice(SEALED.length).split(':', 2);
    const key = this.#keys.find((candidate) => candidate.id === id);
    if (key === undefined) throw decryptError('encrypted with a key that is not configured');
    const bytes = Buffer.from(data, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw decryptError('truncated');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, bytes.subarray(0, IV_BYTES))
        .setAAD(Buffer.from(place))
        .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch (error) {
      throw decryptError('authentication failed (wrong key, or the value was changed or moved)', error);
    }
  }
}

function decryptError(reason: string, cause?: unknown): RedisStoreError {
  return new RedisStoreError('redis_decrypt_failed', `Stored token unreadable: ${reason}`, { cause });
}
