import { randomBytes } from 'node:crypto';
import { describeRedacted } from '../auth/redacted.js';
import {
  type StoredRefreshToken,
  type StoredTokenSet,
  storedView,
  type TokenSet,
  type TokenStore,
  type TokenStoreLease,
} from '../auth/token-store.js';
import { RedisCommands } from './redis-commands.js';
import { RedisLease } from './redis-lease.js';
import { RedisStoreError } from './redis-store-error.js';
import {
  checkOptions,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KEY_PREFIX,
  type RedisStoreOptions,
  tokenStoreShape,
} from './redis-store-options.js';
import { type EncryptionKey, keyBytes, TokenCipher } from './token-cipher.js';
import { READ_TOKENS, TAKE_REFRESH_TOKEN, WRITE_TOKENS } from './token-scripts.js';

/** Options of {@link RedisTokenStore}. */
export interface RedisTokenStoreOptions extends RedisStoreOptions {
  /**
   * Encrypts every stored token with AES-256-GCM. A 32-byte key (bytes, or their base64 text), or several:
   * the first encrypts, all decrypt (rotation). Every instance needs the same keys. Without it, tokens are
   * stored readable by anyone who can read the Redis keys.
   */
  encryptionKey?: EncryptionKey | readonly EncryptionKey[] | undefined;
  /**
   * Stores tokens in clear without a warning. Without `encryptionKey`, anyone who can read the Redis keys
   * can use the tokens, and anyone who can write them chooses the bearer token every instance sends; the
   * store says so once per process (a `process` warning, code `PARTNER_EQUITY_REDIS_PLAINTEXT`) unless this
   * is `true`.
   * @default false
   */
  allowPlaintext?: boolean | undefined;
  /**
   * How long, in real milliseconds, a renewal lease lasts if its holder stops extending it (it is extended
   * every third of this while the renewal runs). After a holder dies, the others wait at most this long.
   * @default 10000
   */
  leaseMs?: number | undefined;
  /**
   * What the token manager does while Redis fails: `'local'` uses a token chain of its own process (one
   * exchange per process, then refresh grants as usual) and returns to the shared chain once Redis answers;
   * `'fail'` fails the calls that need a new token with the {@link RedisStoreError}.
   * @default 'local'
   */
  whenUnavailable?: 'local' | 'fail' | undefined;
}

let warnedPlaintext = false;

// Said once per process: tokens in clear let whoever can write to Redis choose the token every instance sends.
function warnPlaintextOnce(): void {
  if (warnedPlaintext) return;
  warnedPlaintext = true;
  process.emitWarning(
    'RedisTokenStore without encryptionKey: tokens are stored in clear, so whoever can read the Redis keys ' +
      'can use them and whoever can write them chooses the token your instances send. Pass encryptionKey ' +
      '(32 bytes), or allowPlaintext: true to store them in clear knowingly. See docs/many-instances.md.',
    { code: 'PARTNER_EQUITY_REDIS_PLAINTEXT' },
  );
}

/** A renewal rarely takes long; a lease is kept alive no longer than this even if its holder hangs. */
const MAX_LEASE_HOLD_MS = 10 * 60_000;

/**
 * A {@link TokenStore} on Redis: every instance of a client uses one access token and one refresh-token
 * chain. One instance at a time renews, under a lease (`SET NX PX`, kept alive while it renews, expiring if
 * its holder dies); the others keep serving the current token and pick up the new one. The refresh token is
 * removed from Redis (atomically) before it is presented, and a new pair is written only if nobody wrote
 * since it was read (compare-and-set on a generation counter), both in Lua scripts.
 *
 * Stored per client and environment, under `<keyPrefix>{<scope>}:tokens` (a hash) and `…:lease` (a
 * string), where the scope is a hash of `baseUrl` and `clientId`: the access token with its expiry and
 * renewal times, the refresh token until it is taken, and the generation. The hash expires with the later
 * of the two tokens; the lease after `leaseMs`. With `encryptionKey`, token values are AES-256-GCM
 * ciphertexts bound to their key, field and generation.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { PartnerEquity } from '@partner-equity/sdk';
 * import { RedisTokenStore } from '@partner-equity/sdk/redis';
 *
 * const redis = createClient({ url: process.env.REDIS_URL });
 * redis.on('error', (error) => logger.warn('redis', error));
 * await redis.connect();
 * const client = new PartnerEquity({
 *   ...credentials,
 *   tokenStore: new RedisTokenStore({ client: redis, encryptionKey: process.env.TOKEN_STORE_KEY }),
 * });
 * ```
 */
export class RedisTokenStore implements TokenStore {
  readonly whenUnavailable: 'local' | 'fail';
  readonly #commands: RedisCommands;
  readonly #prefix: string;
  readonly #cipher: TokenCipher;
  readonly #leaseMs: number;

  constructor(options: RedisTokenStoreOptions) {
    checkOptions<RedisTokenStoreOptions>('RedisTokenStore options', tokenStoreShape, options);
    this.#commands = new RedisCommands(
      options.client,
      options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    );
    this.#prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    const keys = options.encryptionKey === undefined ? [] : [options.encryptionKey].flat();
    if (keys.length === 0 && options.allowPlaintext !== true) warnPlaintextOnce();
    this.#cipher = new TokenCipher(keys.map((key) => keyBytes(key) as Buffer));
    this.#leaseMs = options.leaseMs ?? 10_000;
    this.whenUnavailable = options.whenUnavailable ?? 'local';
  }

  async read(scope: string): Promise<StoredTokenSet | undefined> {
    const key = this.#tokensKey(scope);
    const reply = await this.#commands.eval(READ_TOKENS, [key], []);
    if (reply === null || reply === undefined) return undefined;
    if (!Array.isArray(reply) || reply.length !== 3) throw badReply('read');
    const [generationText, access, hasRefresh] = reply as unknown[];
    const generation = Number(generationText);
    if (!Number.isSafeInteger(generation) || typeof access !== 'string') throw badReply('read');
    const fields = parseAccess(this.#cipher.open(access, place(key, 'access', generation)));
    return { ...fields, generation, hasRefreshToken: Number(hasRefresh) === 1 };
  }

  async lease(scope: string): Promise<TokenStoreLease | undefined> {
    const key = `${this.#prefix}{${scope}}:lease`;
    const owner = randomBytes(16).toString('base64url');
    const ttl = String(this.#leaseMs);
    const reply = await this.#commands.send('lease', ['SET', key, owner, 'NX', 'PX', ttl]);
    if (reply !== 'OK') return undefined;
    return new RedisLease(this.#commands, key, owner, this.#leaseMs, Date.now() + MAX_LEASE_HOLD_MS);
  }

  async takeRefreshToken(scope: string, generation: number): Promise<StoredRefreshToken | undefined> {
    const key = this.#tokensKey(scope);
    const reply = await this.#commands.eval(TAKE_REFRESH_TOKEN, [key], [String(generation)]);
    if (reply === null || reply === undefined) return undefined;
    if (typeof reply !== 'string') throw badReply('take refresh token');
    return parseRefresh(this.#cipher.open(reply, place(key, 'refresh', generation)));
  }

  async write(
    scope: string,
    tokens: TokenSet,
    previousGeneration: number,
  ): Promise<StoredTokenSet | undefined> {
    const key = this.#tokensKey(scope);
    const generation = previousGeneration + 1;
    const { accessToken: t, issuedAt: i, expiresAt: e, renewAt: r, blockAt: b, refreshToken } = tokens;
    const access = this.#cipher.seal(JSON.stringify({ t, i, e, r, b }), place(key, 'access', generation));
    const refresh =
      refreshToken === undefined
        ? ''
        : this.#cipher.seal(
            JSON.stringify({ t: refreshToken.value, e: refreshToken.expiresAt }),
            place(key, 'refresh', generation),
          );
    const lastsUntil = Math.max(tokens.expiresAt, refreshToken?.expiresAt ?? 0);
    const ttlMs = String(Math.max(1000, Math.ceil(lastsUntil - tokens.issuedAt)));
    const reply = await this.#commands.eval(
      WRITE_TOKENS,
      [key],
      [String(previousGeneration), access, refresh, ttlMs],
    );
    if (reply === null || reply === undefined) return undefined;
    if (Number(reply) !== generation) throw badReply('write');
    return storedView(tokens, generation);
  }

  #tokensKey(scope: string): string {
    return `${this.#prefix}{${scope}}:tokens`;
  }

  /** Harmless facts only: never the client, a key or a token. */
  toJSON(): Record<string, unknown> {
    return {
      keyPrefix: this.#prefix,
      encrypted: this.#cipher.encrypted,
      whenUnavailable: this.whenUnavailable,
    };
  }

  /** What `util.inspect` (and `console.log`) show: the same harmless facts. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return describeRedacted('RedisTokenStore', this.toJSON());
  }
}

/** Additional data binding a sealed value to where it is stored. */
function place(key: string, field: 'access' | 'refresh', generation: number): string {
  return `${key}|${field}|${generation}`;
}

function parseAccess(json: string): Omit<TokenSet, 'refreshToken'> {
  const value = parseJson(json) as Record<string, unknown>;
  const { t, i, e, r, b } = value;
  if (typeof t !== 'string' || ![i, e, r, b].every((n) => typeof n === 'number' && Number.isFinite(n))) {
    throw badReply('read');
  }
  return {
    accessToken: t,
    issuedAt: i as number,
    expiresAt: e as number,
    renewAt: r as number,
    blockAt: b as number,
  };
}

function parseRefresh(json: string): StoredRefreshToken {
  const { t, e } = parseJson(json) as Record<string, unknown>;
  if (typeof t !== 'string' || typeof e !== 'number') throw badReply('take refresh token');
  return { value: t, expiresAt: e };
}

function parseJson(json: string): unknown {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value === 'object' && value !== null) return value;
  } catch {
    // Reported below, without the text (it may hold a token).
  }
  throw badReply('read');
}

function badReply(what: string): RedisStoreError {
  return new RedisStoreError('redis_error', `Redis ${what}: the stored tokens are not in the expected shape`);
}
