import { createTokenManager } from './auth/create-token-manager.js';
import type { ChunkFits } from './core/bulk/chunk-fit.js';
import { type ClientOptions, validateClientOptions } from './core/client-options.js';
import { type Clock, systemClock } from './core/clock.js';
import { ClientClosedError } from './core/errors/client-closed-error.js';
import { InputValidationError } from './core/errors/errors.js';
import { consoleLogger, levelLogger, resolveLogLevel } from './core/logging/logger.js';
import { SecretRegistry } from './core/logging/secret-registry.js';
import { RateLimiter } from './core/rate-limit/rate-limiter.js';
import type { Authenticator } from './core/request/authenticator.js';
import { Requester } from './core/request/requester.js';
import { resolveResponseValidation, responseValidation } from './core/request/response-validation.js';
import { DEFAULT_RETRY } from './core/request/retry-policy.js';
import { defaultTransport } from './core/transport/default-transport.js';
import { isCleartextToNetwork } from './core/transport/loopback-host.js';
import { type ClosableTransport, fetchTransport, type Transport } from './core/transport/transport.js';
import type { DoctorReport } from './doctor/doctor-report.js';
import type { DoctorOptions } from './doctor/run-doctor.js';
import { Contracts } from './resources/contracts.js';
import { Investors } from './resources/investors.js';
import { OAuth } from './resources/oauth.js';
import { SpvRequests } from './resources/spv-requests.js';
import { Subscriptions } from './resources/subscriptions.js';
import { System } from './resources/system.js';
import { Tracing } from './tracing/tracing.js';

/** Options a derived client may change: everything that leaves the connection pool and the tokens valid. */
export type ClientOverrides = Pick<
  ClientOptions,
  | 'maxRetries'
  | 'timeout'
  | 'deadline'
  | 'retry'
  | 'logger'
  | 'logLevel'
  | 'defaultHeaders'
  | 'responseValidation'
  | 'maxRateLimitWait'
>;

const overridable = new Set<string>([
  'maxRetries',
  'timeout',
  'deadline',
  'retry',
  'logger',
  'logLevel',
  'defaultHeaders',
  'responseValidation',
  'maxRateLimitWait',
] satisfies (keyof ClientOverrides)[]);

/** What a client derived with `withOptions()` shares with its parent. */
interface Shared {
  transport: Transport | ClosableTransport;
  authenticator: Authenticator | undefined;
  secrets: SecretRegistry;
  rateLimiter: RateLimiter | undefined;
  chunkFits: ChunkFits;
  /** Set by `close()` of any client sharing the transport: they are all closed with it. */
  lifecycle: { closed: boolean };
}

/**
 * The Partner Equity API client.
 *
 * @example
 * ```ts
 * import { PartnerEquity } from '@partner-equity/sdk';
 *
 * const client = new PartnerEquity({
 *   baseUrl: 'https://sandbox.example-partner-equity.com',
 *   clientId: 'client_123',
 *   issuer: 'https://api.partner.example',
 *   privateKey: process.env.PARTNER_EQUITY_PRIVATE_KEY!,
 * });
 * const page = await client.spvRequests.list({ status: 'approved' });
 * ```
 */
export class PartnerEquity {
  // Handed from `withOptions()` to the constructor it calls; never set outside that synchronous call.
  static #sharing: Shared | undefined;

  // Private fields: options may hold a private key, and `util.inspect`/JSON never show private fields.
  readonly #options: Readonly<ClientOptions>;
  readonly #transport: Transport | ClosableTransport;
  readonly #authenticator: Authenticator | undefined;
  readonly #secrets: SecretRegistry;
  readonly #rateLimiter: RateLimiter | undefined;
  readonly #chunkFits: ChunkFits;
  readonly #lifecycle: { closed: boolean };
  readonly #requester: Requester;

  /** Token info (`GET /v1/oauth2/info`). Tokens themselves are obtained and renewed for you. */
  readonly oauth: OAuth;
  /** The service's root, health check, OpenAPI document and docs page (no authentication). */
  readonly system: System;
  /** Versioned contract templates, catalogs, primitives and samples (no authentication). */
  readonly contracts: Contracts;
  /** Submit, list, read and cancel SPV requests. */
  readonly spvRequests: SpvRequests;
  /** Bulk-create investors, chunked, with per-row results. */
  readonly investors: Investors;
  /** Subscribe investors to an SPV; upload signed forms and funding receipts. */
  readonly subscriptions: Subscriptions;

  /** @throws InputValidationError naming every bad option. */
  constructor(options: ClientOptions) {
    const shared = PartnerEquity.#sharing;
    PartnerEquity.#sharing = undefined;
    this.#options = Object.freeze({ ...validateClientOptions(options) });
    const o = this.#options;

    this.#transport =
      shared?.transport ??
      (o.fetch === undefined
        ? defaultTransport({ dispatcher: o.dispatcher, maxResponseBytes: o.maxResponseBytes })
        : fetchTransport(o.fetch, { maxResponseBytes: o.maxResponseBytes }));
    const clock: Clock = o.clock ?? systemClock;
    const logLevel = resolveLogLevel(o.logLevel);
    const retry = { ...DEFAULT_RETRY, ...o.retry };

    // The tokens and assertions the token manager handles, redacted by value from errors and logs.
    const secrets = shared?.secrets ?? new SecretRegistry();
    this.#chunkFits = shared?.chunkFits ?? new Map();
    const lifecycle = shared?.lifecycle ?? { closed: false };
    this.#lifecycle = lifecycle;
    const logger = levelLogger(o.logger ?? consoleLogger, logLevel);
    if (shared === undefined && isCleartextToNetwork(o.baseUrl)) {
      logger.warn('baseUrl is plain http to another host (allowInsecureHttp): tokens travel in cleartext');
    }
    // One budget per client, shared by its derived clients: they are the same client to the service.
    const rateLimiter =
      shared !== undefined
        ? shared.rateLimiter
        : o.rateLimit === false
          ? undefined
          : new RateLimiter({
              key: `${o.clientId ?? ''}@${o.baseUrl}`,
              clock,
              logger,
              store: o.rateLimitStore,
            });
    const requester = new Requester({
      baseUrl: new URL(o.baseUrl),
      transport: this.#transport,
      clock,
      logger,
      logLevel,
      maxRetries: o.maxRetries ?? 2,
      timeout: o.timeout ?? 60_000,
      deadline: o.deadline,
      retry,
      defaultHeaders: { ...o.defaultHeaders },
      validation: responseValidation(resolveResponseValidation(o.responseValidation), logger),
      secrets,
      logPersonalData: o.logPersonalData,
      chunkFits: this.#chunkFits,
      tracing: new Tracing({
        tracerProvider: o.tracerProvider,
        secrets,
        propagate: o.propagateTraceContext,
      }),
      rateLimiter,
      maxRateLimitWait: o.maxRateLimitWait,
      lifecycle,
    });
    // Credentials become a token manager over `requester` (the token route needs no bearer token); the key
    // is imported, or refused, here, once. Derived clients share it, and so share tokens.
    this.#authenticator =
      shared === undefined ? (o.authenticator ?? createTokenManager(o, requester)) : shared.authenticator;
    this.#secrets = secrets;
    this.#rateLimiter = rateLimiter;
    this.#requester = requester.with({ authenticator: this.#authenticator });
    this.oauth = new OAuth(this.#requester);
    this.system = new System(this.#requester);
    this.contracts = new Contracts(this.#requester);
    this.spvRequests = new SpvRequests(this.#requester);
    this.investors = new Investors(this.#requester);
    this.subscriptions = new Subscriptions(this.#requester);
  }

  /** The base URL the client was built with (also the JWT `aud`). */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /**
   * A client with some options changed that shares this client's connection pool and tokens.
   *
   * @example
   * ```ts
   * const patient = client.withOptions({ maxRetries: 5, timeout: 120_000 });
   * ```
   */
  withOptions(overrides: ClientOverrides): PartnerEquity {
    // Plain-JS callers could pass anything: refuse what would break the shared pool or tokens.
    const refused = Object.keys(overrides).filter((key) => !overridable.has(key));
    if (refused.length > 0) {
      throw new InputValidationError(
        'withOptions overrides',
        refused.map((path) => ({ path, message: 'cannot change on a derived client; build a new client' })),
      );
    }
    const merged: ClientOptions = {
      ...this.#options,
      ...overrides,
      retry: { ...this.#options.retry, ...overrides.retry },
      defaultHeaders: { ...this.#options.defaultHeaders, ...overrides.defaultHeaders },
    };
    PartnerEquity.#sharing = {
      transport: this.#transport,
      authenticator: this.#authenticator,
      secrets: this.#secrets,
      rateLimiter: this.#rateLimiter,
      chunkFits: this.#chunkFits,
      lifecycle: this.#lifecycle,
    };
    try {
      return new PartnerEquity(merged);
    } finally {
      PartnerEquity.#sharing = undefined;
    }
  }

  /**
   * Closes the client and the clients `withOptions()` derived from it or it from (they share one connection
   * pool). Calls waiting their rate-limit turn fail, and so does every later call, with `ClientClosedError`;
   * once it resolves, the client's writes to a shared `rateLimitStore` are done and none starts, so you can
   * close your Redis client next. Not needed for a long-running process; useful at shutdown, the end of a
   * script or a test.
   *
   * @example
   * ```ts
   * await client.close();
   * await redis.quit();
   * ```
   */
  async close(): Promise<void> {
    this.#lifecycle.closed = true;
    await this.#rateLimiter?.close(new ClientClosedError());
    if ('close' in this.#transport) await this.#transport.close();
  }

  /**
   * Checks the environment in front of this client against what the SDK expects, before the first real
   * call: reachability, TLS and clock; the token exchange with this key (a 401 explained in words);
   * contracts with and without a token; the service's `/openapi.json` compared with what the SDK reads and
   * sends; and, given `webhook`, your endpoint with signed test events. Nothing it does writes data on the
   * service: it reads and exchanges tokens. Each check is `ok`, `differs` or `fails`, with the fix.
   *
   * @example
   * ```ts
   * const report = await client.doctor({ webhook: { url: 'https://api.partner.example/webhooks', secret } });
   * for (const check of report.checks) console.log(check.status, check.title, check.explanation);
   * if (!report.ok) process.exitCode = 1;
   * ```
   */
  async doctor(options?: DoctorOptions): Promise<DoctorReport> {
    // The doctor is a third of the client's code: loaded on first use, so an app that never calls it never
    // parses it (the main entry's import time).
    const [{ doctorTarget }, { runDoctor }] = await Promise.all([
      import('./doctor/doctor-target.js'),
      import('./doctor/run-doctor.js'),
    ]);
    return runDoctor(doctorTarget(this.#options, this.#requester), options);
  }

  /** @internal The request pipeline the resource modules use. */
  get _requester(): Requester {
    return this.#requester;
  }
}
