import { type Clock, systemClock } from '../core/clock.js';
import { APIError, PermissionDeniedError, userAbortError } from '../core/errors/errors.js';
import type { Logger } from '../core/logging/logger.js';
import type { SecretRegistry } from '../core/logging/secret-registry.js';
import type { Authenticator } from '../core/request/authenticator.js';
import { DEFAULT_RETRY, type RetryConfig } from '../core/request/retry-policy.js';
import { type SdkSpan, type Tracing, within } from '../tracing/tracing.js';
import type { AssertionIdentity } from './assertion.js';
import { requestJwtGrant } from './jwt-grant.js';
import { MemoryTokenStore } from './memory-token-store.js';
import { describeRedacted } from './redacted.js';
import { ServerClock } from './server-clock.js';
import type { Signer } from './signer.js';
import type { SigningKey } from './signing-key.js';
import type { TokenEndpoint, TokenExchangeResult } from './token-endpoint.js';
import { MAX_ACCESS_TOKEN_LIFETIME_S, MAX_REFRESH_TOKEN_LIFETIME_S, TOKEN_PATH } from './token-response.js';
import { tokenScope } from './token-scope.js';
import type { StoredRefreshToken, TokenSet, TokenStore } from './token-store.js';
import { type ServedToken, TokenStoreCoordinator } from './token-store-coordinator.js';

/** Options of {@link TokenManager}. */
export interface TokenManagerOptions {
  /** `iss`, `sub`/`client_id`, `aud`, `kid` and `alg` of the assertions. */
  identity: AssertionIdentity;
  /** The imported private key, or the partner's KMS/HSM signer. */
  sign: SigningKey | Signer;
  /** One POST to the token endpoint (no retries of its own). */
  endpoint: TokenEndpoint;
  /** @default systemClock */
  clock?: Clock | undefined;
  /** Jitter source in [0, 1) for the renewal point. @default Math.random */
  random?: (() => number) | undefined;
  /** Retries of a JWT grant after a connection error, timeout, 408, 429 or 5xx. @default 2 */
  maxRetries?: number | undefined;
  /** Backoff of those retries. @default DEFAULT_RETRY (0.5 s doubling, 8 s cap, Retry-After up to 60 s) */
  retry?: RetryConfig | undefined;
  /** Where background renewal failures are reported (they never reach callers). */
  logger?: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'> | undefined;
  /**
   * Where tokens are kept. A store given here is treated as shared (several instances, one token chain).
   * @default a new MemoryTokenStore (this manager's own)
   */
  store?: TokenStore | undefined;
  /** Learns every assertion and refresh token before it is sent, and every token pair on arrival. */
  secrets?: SecretRegistry | undefined;
  /** Where exchange spans go (a background renewal is a trace of its own). */
  tracing?: Tracing | undefined;
}

interface HeldToken {
  readonly accessToken: string;
  readonly expiresAt: number;
  /** When a caller's request starts a background renewal (≈50% of the lifetime, ±10%). */
  readonly renewAt: number;
  /** From here on callers wait for a new token: 60 s before expiry (a quarter of very short lifetimes). */
  readonly blockAt: number;
}

const RENEW_FRACTION = 0.5;
const RENEW_JITTER = 0.1;
const BLOCK_MARGIN_MS = 60_000;
/** After a failed background renewal, callers keep the current token this long before another try. */
const BACKGROUND_RETRY_MS = 10_000;
/** When another instance holds the renewal lease, callers serve the current token this long before a look. */
const LEASE_BUSY_RECHECK_MS = 2_000;

/**
 * Obtains, caches and renews access tokens; the request pipeline's {@link Authenticator}.
 *
 * - One exchange in flight at a time; concurrent callers share it.
 * - Renews in the background at ~50% of `expiresIn` (±10% jitter) while serving the current token; callers
 *   wait only when less than 60 s remain, or when there is no token.
 * - Refresh tokens rotate: each is dropped before it is presented and the new one stored on arrival, so none
 *   is ever presented twice; any refresh failure (reuse 401, timeout, lost response) falls back to a new
 *   assertion. A 403 is never retried.
 * - Learns the server's clock from `Date` headers; an assertion refused while the clocks differ by more than
 *   2 s is sent once more with the corrected clock.
 *
 * - With a shared {@link TokenStore}, one instance renews for all under the store's lease, a refresh token is
 *   taken out of the store before it is presented, and a 401 renews only if the refused token is still the
 *   shared one; while the store fails, a chain of this process takes over (see `TokenStore.whenUnavailable`).
 *
 * Tokens, refresh tokens and keys live in private fields and never appear in `util.inspect` or JSON.
 */
export class TokenManager implements Authenticator {
  readonly #options: TokenManagerOptions;
  readonly #clock: Clock;
  readonly #serverClock: ServerClock;
  readonly #random: () => number;
  readonly #tokens: TokenStoreCoordinator;
  /** A store given in the options is shared: the renewal point is then never before 50% of the lifetime. */
  readonly #shared: boolean;
  #token: HeldToken | undefined;
  #hasRefresh = false;
  /** The token last refused with 401, never adopted again. */
  #stale: string | undefined;
  #inflight: Promise<HeldToken> | undefined;
  /** The span of the exchange in flight, which every caller that waits for it links to. */
  #inflightSpan: SdkSpan | undefined;
  #backgroundNotBefore = Number.NEGATIVE_INFINITY;

  constructor(options: TokenManagerOptions) {
    const { endpoint, secrets } = options;
    // What goes out (an assertion, a refresh token) is known before an answer can quote it back.
    this.#options =
      secrets === undefined
        ? options
        : {
            ...options,
            endpoint: (form, signal, sent) => {
              // By value as well as by shape, each enough on its own; and each part apart (header, claims,
              // signature), so that an answer quoting them separately cannot be put together again.
              // (The whole last: the registry replaces its newest values first.)
              const assertion = form['assertion'];
              for (const part of assertion?.split('.') ?? []) secrets.add(part);
              secrets.add(assertion);
              secrets.add(form['refresh_token']);
              return endpoint(form, signal, sent);
            },
          };
    this.#clock = options.clock ?? systemClock;
    this.#serverClock = new ServerClock(this.#clock);
    this.#random = options.random ?? Math.random;
    this.#shared = options.store !== undefined;
    this.#tokens = new TokenStoreCoordinator({
      store: options.store ?? new MemoryTokenStore(),
      scope: tokenScope(options.identity),
      clock: this.#clock,
      logger: options.logger,
      secrets,
    });
  }

  /** A valid access token: the cached one, or a new one when none is usable. */
  async getToken(signal?: AbortSignal): Promise<string> {
    return this.currentToken() ?? (await this.#waitForExchange('needed', signal)).accessToken;
  }

  /**
   * The cached token while it is usable without waiting (renewal, when due, starts in the background), else
   * `undefined`: the pipeline's synchronous path for nearly every call.
   */
  currentToken(): string | undefined {
    const now = this.#clock.now();
    const token = this.#token;
    if (token === undefined || now >= token.blockAt) return undefined;
    const due = now >= token.renewAt || now >= this.#tokens.probeAt;
    if (due && this.#inflight === undefined && now >= this.#backgroundNotBefore) {
      this.#renewInBackground();
    }
    return token.accessToken;
  }

  /**
   * The API refused `failedToken` with 401. When it is still the current token, it is discarded and a new
   * one obtained (another instance's newer one from a shared store, else a refresh, else a new assertion);
   * when a newer token already exists, nothing is sent.
   * Resolves `true` (retry the call once) or rejects with the exchange's error.
   */
  async onUnauthorized(failedToken: string, signal?: AbortSignal): Promise<boolean> {
    if (this.#token?.accessToken !== failedToken) return true;
    this.#token = undefined;
    this.#stale = failedToken;
    await this.#waitForExchange('unauthorized', signal);
    return true;
  }

  /** The learned server clock offset in milliseconds (server minus local). */
  get clockOffsetMs(): number {
    return this.#serverClock.offsetMs;
  }

  /** The exchange the caller waits for; its span is linked from the caller's (the active) span. */
  #waitForExchange(trigger: 'needed' | 'unauthorized', signal?: AbortSignal): Promise<HeldToken> {
    // An already-aborted signal starts no exchange (waitFor checks it before calling).
    return waitFor(() => {
      const exchange = this.#exchange(trigger);
      this.#inflightSpan?.linkFromActive();
      return exchange;
    }, signal);
  }

  #renewInBackground(): void {
    this.#exchange('background').catch((error: unknown) => {
      this.#backgroundNotBefore = this.#clock.now() + BACKGROUND_RETRY_MS;
      this.#options.logger?.warn(
        'Access token renewal failed; the current token is still used',
        describe(error),
      );
    });
  }

  /** The exchange in flight, or a new one. Cleared when it settles, whatever the outcome. */
  #exchange(trigger: 'needed' | 'unauthorized' | 'background'): Promise<HeldToken> {
    if (this.#inflight !== undefined) return this.#inflight;
    const tracing = this.#options.tracing;
    // A background renewal serves no waiting call: a root span, not a child of the call that started it.
    const span = tracing?.enabled
      ? tracing.start(
          'oauth.token_exchange',
          'internal',
          { 'partner_equity.token.trigger': trigger },
          trigger === 'background',
        )
      : undefined;
    this.#inflightSpan = span;
    const inflight = within(span, () => this.#obtain()).finally(() => {
      this.#inflight = undefined;
      this.#inflightSpan = undefined;
    });
    // Nobody may be left to handle a failure (a caller whose tracer threw while linking to this exchange):
    // it must not become an unhandled rejection.
    inflight.catch(() => undefined);
    this.#inflight = inflight;
    return inflight;
  }

  async #obtain(): Promise<HeldToken> {
    const held = this.#token;
    const served = await this.#tokens.obtain({ held, stale: this.#stale }, (refresh) => this.#grant(refresh));
    if (held !== undefined && served.accessToken === held.accessToken) {
      // Another instance holds the renewal lease: keep serving this token, look again shortly.
      this.#backgroundNotBefore = this.#clock.now() + LEASE_BUSY_RECHECK_MS;
      return held;
    }
    return this.#adopt(served);
  }

  /** A new pair from the API: the refresh grant with `refresh` (already taken out of the store), else an assertion. */
  async #grant(refresh: StoredRefreshToken | undefined): Promise<TokenSet> {
    // Burned from here on: presented at most once, whether or not its answer comes back.
    this.#hasRefresh = false;
    if (refresh !== undefined && this.#clock.now() < refresh.expiresAt) {
      const startedAt = this.#clock.now();
      this.#inflightSpan?.set({ 'partner_equity.token.grant_type': 'refresh_token' });
      try {
        const result = await this.#options.endpoint({
          grant_type: 'refresh_token',
          refresh_token: refresh.value,
        });
        return this.#store(result, startedAt);
      } catch (error) {
        if (error instanceof PermissionDeniedError) throw error;
        this.#options.logger?.debug('Refresh grant failed; using a new assertion', describe(error));
      }
    }
    this.#inflightSpan?.set({ 'partner_equity.token.grant_type': 'jwt_bearer' });
    const { result, startedAt } = await requestJwtGrant({
      endpoint: this.#options.endpoint,
      sign: this.#options.sign,
      identity: this.#options.identity,
      clock: this.#clock,
      serverClock: this.#serverClock,
      maxRetries: this.#options.maxRetries ?? 2,
      retry: this.#options.retry ?? DEFAULT_RETRY,
      logger: this.#options.logger,
    });
    return this.#store(result, startedAt);
  }

  /**
   * A new token pair as the store keeps it; times count from when the request started, so they err early.
   * Lifetimes are capped (24 h for access tokens, 30 days for refresh tokens): a server announcing more only
   * makes the SDK renew earlier than it needed to.
   */
  #store({ token, serverDate }: TokenExchangeResult, startedAt: number): TokenSet {
    this.#options.secrets?.add(token.accessToken);
    this.#options.secrets?.add(token.refreshToken);
    if (serverDate !== undefined) this.#serverClock.observe(serverDate);
    const lifetime = Math.min(token.expiresIn, MAX_ACCESS_TOKEN_LIFETIME_S) * 1000;
    const refreshLifetime = Math.min(token.refreshExpiresIn, MAX_REFRESH_TOKEN_LIFETIME_S) * 1000;
    // ±10% spreads the renewals of independent instances; with a shared store one instance renews for all,
    // so the jitter only delays (renewing early would only add exchanges).
    const spread = this.#shared ? this.#random() : 2 * this.#random() - 1;
    const jitter = 1 + RENEW_JITTER * spread;
    return {
      accessToken: token.accessToken,
      issuedAt: startedAt,
      expiresAt: startedAt + lifetime,
      renewAt: startedAt + lifetime * RENEW_FRACTION * jitter,
      blockAt: startedAt + lifetime - Math.min(BLOCK_MARGIN_MS, lifetime / 4),
      refreshToken:
        token.refreshToken === undefined
          ? undefined
          : { value: token.refreshToken, expiresAt: startedAt + refreshLifetime },
    };
  }

  /** Serves `served` from now on. */
  #adopt(served: ServedToken): HeldToken {
    const { accessToken, expiresAt, renewAt, blockAt } = served;
    // A token another instance obtained (shared store) is redacted by value here too.
    this.#options.secrets?.add(accessToken);
    const held: HeldToken = { accessToken, expiresAt, renewAt, blockAt };
    this.#hasRefresh = served.hasRefreshToken === true;
    this.#token = held;
    this.#stale = undefined;
    this.#backgroundNotBefore = Number.NEGATIVE_INFINITY;
    return held;
  }

  /** Harmless facts only. */
  toJSON(): Record<string, unknown> {
    const { identity } = this.#options;
    return {
      clientId: identity.clientId,
      audience: identity.audience,
      hasAccessToken: this.#token !== undefined,
      hasRefreshToken: this.#hasRefresh,
      expiresAt: isoDate(this.#token?.expiresAt),
      clockOffsetMs: this.#serverClock.offsetMs,
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return describeRedacted('TokenManager', this.toJSON());
  }
}

/**
 * Resolves like `start()`, or rejects with `APIUserAbortError` when `signal` aborts first; an already-aborted
 * signal rejects without calling `start` (no exchange for a caller who has given up).
 */
function waitFor<T>(start: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return start();
  const aborted = () => userAbortError({ method: 'POST', path: TOKEN_PATH }, signal);
  if (signal.aborted) return Promise.reject(aborted());
  const promise = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    // `once`: gone as abort fires, not only once the exchange settles.
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** An epoch time as ISO 8601; `undefined` (never a `RangeError`) for one a `Date` cannot hold. */
function isoDate(at: number | undefined): string | undefined {
  const date = new Date(at ?? Number.NaN);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Log fields for a failure: its kind, never its payload. */
function describe(error: unknown): Record<string, unknown> {
  if (error instanceof APIError) return { error: error.name, status: error.status, code: error.code };
  if (error instanceof Error) return { error: error.name, code: (error as { code?: unknown }).code };
  return { error: typeof error };
}
