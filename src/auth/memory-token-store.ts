import { describeRedacted } from './redacted.js';
import {
  type StoredRefreshToken,
  type StoredTokenSet,
  storedView,
  type TokenSet,
  type TokenStore,
  type TokenStoreLease,
} from './token-store.js';

interface Entry {
  generation: number;
  tokens: TokenSet | undefined;
  leased: boolean;
}

/**
 * The default {@link TokenStore}: tokens live in this process only. Each client gets its own unless you
 * pass one instance to several clients of the same `clientId`, which then share one token chain. For
 * several processes, use a shared store such as `RedisTokenStore` from `@partner-equity/sdk/redis`.
 *
 * Tokens are kept in private fields: `util.inspect` and `JSON.stringify` show only how many scopes it holds.
 *
 * @example
 * ```ts
 * const tokenStore = new MemoryTokenStore();
 * const reports = new PartnerEquity({ ...credentials, tokenStore });
 * const imports = new PartnerEquity({ ...credentials, tokenStore, maxRetries: 5 }); // same tokens
 * ```
 */
export class MemoryTokenStore implements TokenStore {
  readonly #entries = new Map<string, Entry>();

  read(scope: string): StoredTokenSet | undefined {
    const entry = this.#entries.get(scope);
    return entry?.tokens === undefined ? undefined : storedView(entry.tokens, entry.generation);
  }

  lease(scope: string): TokenStoreLease | undefined {
    const entry = this.#entry(scope);
    if (entry.leased) return undefined;
    entry.leased = true;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        entry.leased = false;
      },
    };
  }

  takeRefreshToken(scope: string, generation: number): StoredRefreshToken | undefined {
    const entry = this.#entries.get(scope);
    if (entry?.tokens === undefined || entry.generation !== generation) return undefined;
    const { refreshToken, ...rest } = entry.tokens;
    entry.tokens = rest;
    return refreshToken;
  }

  write(scope: string, tokens: TokenSet, previousGeneration: number): StoredTokenSet | undefined {
    const entry = this.#entry(scope);
    const current = entry.tokens === undefined ? 0 : entry.generation;
    if (current !== previousGeneration) return undefined;
    entry.generation = current + 1;
    entry.tokens = tokens;
    return storedView(tokens, entry.generation);
  }

  #entry(scope: string): Entry {
    let entry = this.#entries.get(scope);
    if (entry === undefined) {
      entry = { generation: 0, tokens: undefined, leased: false };
      this.#entries.set(scope, entry);
    }
    return entry;
  }

  /** Harmless facts only. */
  toJSON(): Record<string, unknown> {
    return { scopes: this.#entries.size };
  }

  /** What `util.inspect` (and `console.log`) show: the same harmless facts. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return describeRedacted('MemoryTokenStore', this.toJSON());
  }
}
