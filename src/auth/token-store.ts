/** A refresh token and when it stops working (epoch ms on the token manager's clock). */
export interface StoredRefreshToken {
  readonly value: string;
  readonly expiresAt: number;
}

/**
 * One token pair as the token manager hands it to a {@link TokenStore}. Times are epoch milliseconds on the
 * token manager's clock, decided by the instance that obtained the pair, so every instance renews it at the
 * same moment.
 */
export interface TokenSet {
  readonly accessToken: string;
  /** When the exchange that produced the pair started (its times count from here). */
  readonly issuedAt: number;
  readonly expiresAt: number;
  /** From here on the next call starts a renewal (in the background: the token is still served). */
  readonly renewAt: number;
  /** From here on callers wait for a new token instead of using this one. */
  readonly blockAt: number;
  readonly refreshToken?: StoredRefreshToken | undefined;
}

/** A {@link TokenSet} as read back: the refresh token's value is only handed out by `takeRefreshToken`. */
export interface StoredTokenSet extends Omit<TokenSet, 'refreshToken'> {
  /** Goes up by one on every write: the compare-and-set handle of `write` and `takeRefreshToken`. */
  readonly generation: number;
  readonly hasRefreshToken: boolean;
}

/** The right to renew a scope's tokens; released when the renewal is over. */
export interface TokenStoreLease {
  /** Ends the lease so another instance may renew (the token manager does not wait for it). */
  release(): void | Promise<void>;
}

/**
 * Where the token manager keeps its access and refresh tokens, so several clients, processes or machines can
 * share one token chain instead of each exchanging its own. The default, {@link MemoryTokenStore}, keeps them
 * in the process; `@partner-equity/sdk/redis` ships one over Redis.
 *
 * The token manager's rules over any store:
 * - it reads the shared set and uses it while it is usable;
 * - one instance at a time renews, holding the `lease`; the others keep serving the current token and pick
 *   up the new one;
 * - a refresh token is taken out of the store (`takeRefreshToken`, atomic) before it is presented, so it is
 *   presented at most once cluster-wide, whoever holds the lease;
 * - the new set is written only if nobody wrote since it was read (`write` compares generations).
 *
 * `scope` names one client at one environment (an opaque string the token manager derives from `clientId` and
 * `baseUrl`), so one store can serve several clients. A method that throws or rejects means "the store is
 * unavailable": see `whenUnavailable`.
 */
export interface TokenStore {
  /**
   * What the token manager does while this store fails: `'local'` keeps a token chain of its own in the
   * process and goes back to the store when it answers again; `'fail'` fails the calls that need a token.
   * @default 'local'
   */
  readonly whenUnavailable?: 'local' | 'fail' | undefined;
  /** The scope's current set, or `undefined` when there is none. */
  read(scope: string): StoredTokenSet | undefined | Promise<StoredTokenSet | undefined>;
  /**
   * Tries to become the scope's only renewer. Resolves a lease, or `undefined` when another instance holds
   * it. A lease must end by itself (expire) if its holder dies.
   */
  lease(scope: string): TokenStoreLease | undefined | Promise<TokenStoreLease | undefined>;
  /**
   * Atomically removes and returns the refresh token of the set with this `generation`; `undefined` when
   * that set is no longer current or has no refresh token (left).
   */
  takeRefreshToken(
    scope: string,
    generation: number,
  ): StoredRefreshToken | undefined | Promise<StoredRefreshToken | undefined>;
  /**
   * Stores `tokens` as generation `previousGeneration + 1` if the current generation is still
   * `previousGeneration` (0: no set). Resolves the stored set, or `undefined` when another write came first.
   */
  write(
    scope: string,
    tokens: TokenSet,
    previousGeneration: number,
  ): StoredTokenSet | undefined | Promise<StoredTokenSet | undefined>;
}

/** The read-back view of `tokens` stored as `generation`. */
export function storedView(tokens: TokenSet, generation: number): StoredTokenSet {
  const { refreshToken, ...rest } = tokens;
  return { ...rest, generation, hasRefreshToken: refreshToken !== undefined };
}
