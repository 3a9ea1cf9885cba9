import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logging/logger.js';
import { redactText } from '../core/logging/redact.js';
import type { SecretRegistry } from '../core/logging/secret-registry.js';
import { backoffDelay, DEFAULT_RETRY, type RetryConfig } from '../core/request/retry-policy.js';
import { drive, type Steps } from './drive.js';
import { MemoryTokenStore } from './memory-token-store.js';
import type {
  StoredRefreshToken,
  StoredTokenSet,
  TokenSet,
  TokenStore,
  TokenStoreLease,
} from './token-store.js';

/** The part of a token set the token manager serves from. */
export type ServedToken = Pick<TokenSet, 'accessToken' | 'expiresAt' | 'renewAt' | 'blockAt'> & {
  readonly hasRefreshToken?: boolean;
};

/** What the token manager holds when it asks for a token. */
export interface TokenView {
  /** The token it serves now, if any. */
  held: ServedToken | undefined;
  /** A token the API refused with 401: never adopted again. Never `held` too (a refused token is dropped). */
  stale: string | undefined;
}

/** Obtains a new pair from the API: a refresh grant with `refresh` when given and usable, else an assertion. */
export type GrantTokens = (refresh: StoredRefreshToken | undefined) => Promise<TokenSet>;

/** While on the local chain, how often (token-manager clock) a call looks at the shared store again. */
const PROBE_INTERVAL_MS = 15_000;
/**
 * Waiting for another instance's renewal: the house's full-jitter backoff between looks, 20 ms doubling to a
 * 500 ms cap, in real milliseconds (jitter keeps waiting instances from looking in step).
 */
const LEASE_POLL: RetryConfig = { ...DEFAULT_RETRY, initialDelayMs: 20, maxDelayMs: 500 };

/** A store call failed; `obtained` is a pair already received from the API that could not be stored. */
class StoreFailure extends Error {
  readonly obtained: TokenSet | undefined;
  constructor(cause: unknown, obtained?: TokenSet) {
    // Never shown: the coordinator rethrows or logs `cause`.
    super(undefined, { cause });
    this.obtained = obtained;
  }
}

/**
 * The token manager's side of a {@link TokenStore}: adopt the shared set while it is usable, renew under the
 * lease when it is due, take the refresh token out before presenting it, write with compare-and-set, and
 * while the store fails (with `whenUnavailable: 'local'`) keep a chain in the process, going back to the
 * store once it answers — handing it the local chain's pair rather than exchanging again.
 *
 * Store calls that answer synchronously continue synchronously ({@link drive}), so with the in-memory store
 * the token request leaves in the same tick as before stores existed.
 */
export class TokenStoreCoordinator {
  readonly #store: TokenStore;
  readonly #scope: string;
  readonly #clock: Clock;
  readonly #logger: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
  readonly #secrets: SecretRegistry | undefined;
  /** The local chain while the store is unavailable. */
  #local: MemoryTokenStore | undefined;
  /**
   * On the local chain, when a call should look at the store again; `Infinity` on the shared chain. A field,
   * not a method: the token manager reads it on every call's synchronous path.
   */
  probeAt = Number.POSITIVE_INFINITY;

  constructor(options: {
    store: TokenStore;
    scope: string;
    clock: Clock;
    logger?: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
    secrets?: SecretRegistry | undefined;
  }) {
    this.#store = options.store;
    this.#scope = options.scope;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#secrets = options.secrets;
  }

  /**
   * A usable token: another instance's newer one, or a new one obtained under the lease, or (while another
   * instance renews) the held one. Rejects with the API's error when the exchange fails, or with the store's
   * error when it fails and `whenUnavailable` is `'fail'`.
   */
  obtain(view: TokenView, grant: GrantTokens): Promise<ServedToken> {
    return drive(this.#obtain(view, grant));
  }

  *#obtain(view: TokenView, grant: GrantTokens): Steps<ServedToken> {
    const local = this.#local;
    if (local !== undefined && this.#clock.now() < this.probeAt) return yield* this.#run(local, view, grant);
    try {
      const token = yield* this.#run(this.#store, view, grant);
      if (this.#local !== undefined) {
        this.#local = undefined;
        this.probeAt = Number.POSITIVE_INFINITY;
        this.#logger?.info('Token store answers again; using the shared token chain');
      }
      return token;
    } catch (error) {
      if (!(error instanceof StoreFailure)) throw error;
      const fields = this.#describe(error.cause);
      // A wrong key is not an outage: said at `error` at every failed look (every 15 s), never once only.
      const misconfigured = isConfigurationError(error.cause);
      if (this.#store.whenUnavailable === 'fail') {
        if (misconfigured) this.#logger?.error('Token store misconfigured; the call fails', fields);
        throw error.cause;
      }
      if (misconfigured) {
        this.#logger?.error(
          'Token store misconfigured, not unavailable: using a token chain of this process, ' +
            'saying so at every look (every 15 s) until the configuration is fixed',
          fields,
        );
      } else if (this.#local === undefined) {
        this.#logger?.warn(
          'Token store unavailable; using a token chain of this process until it answers',
          fields,
        );
      }
      this.#local ??= new MemoryTokenStore();
      this.probeAt = this.#clock.now() + PROBE_INTERVAL_MS;
      if (error.obtained !== undefined) {
        // The write may have landed before it failed, so the pair's refresh token may be shared already:
        // keep only its access token here (the local chain's next renewal uses an assertion).
        const { refreshToken: _, ...accessOnly } = error.obtained;
        // The local chain has one writer, this exchange: its compare-and-set cannot lose.
        this.#local.write(this.#scope, accessOnly, this.#local.read(this.#scope)?.generation ?? 0);
        return accessOnly;
      }
      return yield* this.#run(this.#local, view, grant);
    }
  }

  *#run(store: TokenStore, view: TokenView, grant: GrantTokens): Steps<ServedToken> {
    for (let looks = 0; ; looks++) {
      const current = yield* this.#call(() => store.read(this.#scope));
      if (current !== undefined && adoptable(current, view, this.#clock.now())) return current;
      const lease = yield* this.#call(() => store.lease(this.#scope));
      if (lease !== undefined) {
        try {
          return yield* this.#renew(store, view, grant);
        } finally {
          releaseQuietly(lease);
        }
      }
      // Another instance renews: serve the held token meanwhile, or wait for the new one (real time: the
      // lease expires in the store's time, whatever clock this client runs on).
      if (servable(view, this.#clock.now())) return view.held;
      yield new Promise((resolve) => setTimeout(resolve, backoffDelay(looks, LEASE_POLL)));
    }
  }

  *#renew(store: TokenStore, view: TokenView, grant: GrantTokens): Steps<ServedToken> {
    const now = this.#clock.now();
    const current = yield* this.#call(() => store.read(this.#scope));
    if (current !== undefined && adoptable(current, view, now)) return current;
    const previous = current?.generation ?? 0;
    if (fresh(view, now)) {
      // Nothing is due (a look at the store after an outage): hand it the local chain instead of exchanging.
      const carried = store === this.#local ? undefined : this.#carryLocal();
      if (carried === undefined) return view.held;
      return (yield* this.#call(() => store.write(this.#scope, carried, previous))) ?? view.held;
    }
    const refresh =
      current?.hasRefreshToken === true
        ? yield* this.#call(() => store.takeRefreshToken(this.#scope, current.generation))
        : undefined;
    const tokens = (yield grant(refresh)) as TokenSet;
    let written: StoredTokenSet | undefined;
    try {
      written = (yield store.write(this.#scope, tokens, previous)) as StoredTokenSet | undefined;
    } catch (error) {
      throw new StoreFailure(error, tokens);
    }
    if (written !== undefined) return written;
    // Another write came first (this lease had lapsed): use that set, or this one unshared.
    const winner = yield* this.#call(() => store.read(this.#scope));
    return winner !== undefined && adoptable(winner, view, this.#clock.now()) ? winner : tokens;
  }

  /** The local chain's current pair, its refresh token moved out of the local store. */
  #carryLocal(): TokenSet | undefined {
    const local = this.#local;
    const current = local?.read(this.#scope);
    if (local === undefined || current === undefined) return undefined;
    const { generation, hasRefreshToken: _, ...tokens } = current;
    return { ...tokens, refreshToken: local.takeRefreshToken(this.#scope, generation) };
  }

  /** Log fields for a store's error: its name, code and message (redacted). */
  #describe(error: unknown): Record<string, unknown> {
    if (!(error instanceof Error)) return { error: typeof error };
    const { code } = error as { code?: unknown };
    return { error: error.name, code, message: redactText(error.message, this.#secrets) };
  }

  /** One store call; whatever it throws or rejects with becomes a {@link StoreFailure}. */
  *#call<T>(operation: () => T | Promise<T>): Steps<T> {
    try {
      return (yield operation()) as T;
    } catch (error) {
      throw new StoreFailure(error);
    }
  }
}

/** A set from the store this instance may switch to: new to it, not refused, not yet blocking. */
function adoptable(set: StoredTokenSet, view: TokenView, now: number): boolean {
  return set.accessToken !== view.held?.accessToken && set.accessToken !== view.stale && now < set.blockAt;
}

/** The held token can still be sent. (A token refused with 401 is never held: `stale` is then the only one.) */
function servable(view: TokenView, now: number): view is TokenView & { held: ServedToken } {
  return view.held !== undefined && now < view.held.blockAt;
}

function fresh(view: TokenView, now: number): view is TokenView & { held: ServedToken } {
  return servable(view, now) && now < view.held.renewAt;
}

/** Not awaited: a lease that cannot be released expires by itself. */
function releaseQuietly(lease: TokenStoreLease): void {
  try {
    Promise.resolve(lease.release()).catch(() => undefined);
  } catch {
    // Same as a rejection.
  }
}

/**
 * A store's error that waiting does not fix (a wrong `encryptionKey`): one with `configuration: true`, as a
 * `RedisStoreError` with code `redis_decrypt_failed` is.
 */
function isConfigurationError(error: unknown): boolean {
  return (error as { configuration?: unknown } | undefined)?.configuration === true;
}
