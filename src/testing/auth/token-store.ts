import { unauthorized } from '../http-problem.js';
import { randomSecret } from '../ids.js';

/** An access token the fake issued. */
export interface AccessTokenRecord {
  clientId: string;
  chainId: number;
  issuedAt: number;
  expiresAt: number;
}

interface RefreshTokenRecord {
  clientId: string;
  chainId: number;
  expiresAt: number;
  used: boolean;
}

/** A freshly issued pair, in the token response's shape. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshExpiresIn: number;
}

/**
 * Access and refresh tokens. Each assertion grant starts a chain; each refresh rotates within it. Presenting
 * a refresh token that was already used revokes the whole chain: its refresh tokens and its access tokens.
 */
export class TokenStore {
  readonly #access = new Map<string, AccessTokenRecord>();
  readonly #refresh = new Map<string, RefreshTokenRecord>();
  readonly #revokedChains = new Set<number>();
  #nextChain = 1;
  readonly #now: () => number;
  readonly #accessTtlSeconds: number;
  readonly #refreshTtlSeconds: number;

  constructor(now: () => number, accessTtlSeconds: number, refreshTtlSeconds: number) {
    this.#now = now;
    this.#accessTtlSeconds = accessTtlSeconds;
    this.#refreshTtlSeconds = refreshTtlSeconds;
  }

  /** Issues a pair on a new chain (the assertion grant). */
  issue(clientId: string): IssuedTokens {
    return this.#issueOn(clientId, this.#nextChain++);
  }

  /** Redeems a refresh token for a new pair on the same chain (the refresh grant). */
  refresh(refreshToken: string): IssuedTokens {
    const record = this.#refresh.get(refreshToken);
    if (record === undefined) throw unauthorized('invalid_refresh_token', 'Unknown refresh token');
    if (this.#revokedChains.has(record.chainId)) {
      throw unauthorized('token_revoked', 'This refresh token belongs to a revoked chain');
    }
    if (record.used) {
      this.#revokedChains.add(record.chainId);
      throw unauthorized(
        'refresh_token_reused',
        'This refresh token was already used; every token of its chain is now revoked. Start again with a new assertion.',
      );
    }
    if (this.#now() >= record.expiresAt)
      throw unauthorized('refresh_token_expired', 'The refresh token has expired');
    record.used = true;
    return this.#issueOn(record.clientId, record.chainId);
  }

  /** The record behind a bearer token, or a 401. */
  authenticate(accessToken: string): AccessTokenRecord {
    const record = this.#access.get(accessToken);
    if (record === undefined) throw unauthorized('invalid_token', 'Unknown or malformed access token');
    if (this.#revokedChains.has(record.chainId))
      throw unauthorized('token_revoked', 'The access token was revoked');
    if (this.#now() >= record.expiresAt) throw unauthorized('token_expired', 'The access token has expired');
    return record;
  }

  /** Revokes every chain of a client (or of every client), as an administrator would. */
  revoke(clientId?: string): void {
    for (const record of [...this.#access.values(), ...this.#refresh.values()]) {
      if (clientId === undefined || record.clientId === clientId) this.#revokedChains.add(record.chainId);
    }
  }

  #issueOn(clientId: string, chainId: number): IssuedTokens {
    const now = this.#now();
    const accessToken = randomSecret('pe_at');
    const refreshToken = randomSecret('pe_rt');
    this.#access.set(accessToken, {
      clientId,
      chainId,
      issuedAt: now,
      expiresAt: now + this.#accessTtlSeconds * 1000,
    });
    this.#refresh.set(refreshToken, {
      clientId,
      chainId,
      expiresAt: now + this.#refreshTtlSeconds * 1000,
      used: false,
    });
    return {
      accessToken,
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: this.#accessTtlSeconds,
      refreshExpiresIn: this.#refreshTtlSeconds,
    };
  }
}
