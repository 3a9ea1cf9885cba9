import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { PrivateKeyInput } from '../auth/import-private-key.js';
import type { Signer } from '../auth/signer.js';
import type { TokenStore } from '../auth/token-store.js';
import type { TracerProviderLike } from '../tracing/tracing.js';
import { checkOptions, milliseconds } from './check-options.js';
import type { Clock } from './clock.js';
import { LOG_LEVELS, type Logger, type LogLevel } from './logging/logger.js';
import type { RateLimitStore } from './rate-limit/rate-limit-store.js';
import type { Authenticator } from './request/authenticator.js';
import { HeadersSchema } from './request/request-options.js';
import { RESPONSE_VALIDATION_MODES, type ResponseValidationMode } from './request/response-validation.js';
import type { RetryConfig } from './request/retry-policy.js';
import { isCleartextToNetwork } from './transport/loopback-host.js';

/**
 * Options of `new PartnerEquity(options)`. Validated once, when the client is built; the client never
 * changes them afterwards (derive a variant with `client.withOptions()`).
 *
 * @example
 * ```ts
 * const client = new PartnerEquity({
 *   baseUrl: 'https://sandbox.example-partner-equity.com',
 *   clientId: 'client_123',
 *   issuer: 'https://api.partner.example',
 *   privateKey: process.env.PARTNER_EQUITY_PRIVATE_KEY!,
 *   maxRetries: 3,
 * });
 * ```
 */
export interface ClientOptions {
  /**
   * The environment's base URL, exactly as the API expects it as the JWT `aud` (a base path is kept).
   * `https:`; plain `http:` only to this machine (`localhost`, `127.0.0.0/8`, `[::1]`) unless
   * `allowInsecureHttp` is set.
   */
  baseUrl: string;
  /** Your `client_id` (the assertion's `sub` and `client_id`). Needed for bearer-token routes. */
  clientId?: string | undefined;
  /** Your own API base URL: the assertion's `iss`. */
  issuer?: string | undefined;
  /** Your Ed25519 private key (PKCS#8 PEM, JWK, `CryptoKey` or `KeyObject`). Or give `signer`. */
  privateKey?: PrivateKeyInput | undefined;
  /** Signs assertions elsewhere (KMS/HSM) instead of `privateKey`. */
  signer?: Signer | undefined;
  /** The registered key's id, sent as the assertion's `kid`. */
  keyId?: string | undefined;
  /**
   * The assertion header's `alg`: `EdDSA` (RFC 8037) or the fully specified `Ed25519` (RFC 9864).
   * @default 'EdDSA'
   */
  assertionAlgorithm?: 'EdDSA' | 'Ed25519' | undefined;
  /** Retries after the first attempt of a retryable failure. @default 2 */
  maxRetries?: number | undefined;
  /** Milliseconds per attempt (connect, send, read the whole response). @default 60000 */
  timeout?: number | undefined;
  /** Milliseconds for a whole call across all attempts and backoff waits. @default no limit */
  deadline?: number | undefined;
  /** Backoff tuning. @default { initialDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 } */
  retry?: Partial<RetryConfig> | undefined;
  /** Send requests with this `fetch` (MSW `setupServer`, other runtimes) instead of Node's `http`. */
  fetch?: typeof globalThis.fetch | undefined;
  /** An undici dispatcher (proxy agent, mock agent, tuned pool): requests then go through npm undici. */
  dispatcher?: Dispatcher | undefined;
  /** Where log lines go. @default console */
  logger?: Logger | undefined;
  /** @default the `PARTNER_EQUITY_LOG` environment variable, else 'warn' */
  logLevel?: LogLevel | undefined;
  /**
   * Headers sent with every request (per-call `headers` override them). Checked like per-call headers:
   * valid names, string values without line breaks or control characters.
   */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Accept a plain `http:` `baseUrl` whose host is not this machine. Over plain HTTP the assertion and the
   * access and refresh tokens cross the network in cleartext, so the client refuses such a URL unless this
   * is `true` (and then logs a warning when it is built). Only for a network you trust end to end, such as
   * a TLS-terminating sidecar. Loopback URLs never need it.
   * @default false
   */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Show personal data in debug log lines. By default fields such as `email`, `firstName`, `lastName`,
   * `dateOfBirth`, phone numbers, addresses and national ids, and e-mail addresses anywhere in a logged
   * body, are replaced with `[MASKED]`. Secrets are redacted either way.
   * @default false
   */
  logPersonalData?: boolean | undefined;
  /** The source of time for backoff waits, deadlines and token expiry. @default systemClock */
  clock?: Clock | undefined;
  /** Largest response body read, in bytes. @default 10 MiB */
  maxResponseBytes?: number | undefined;
  /**
   * What to do with a 2xx body that breaks a field the spec states: `'warn'` returns it as received and
   * logs one warning per route and problem; `'strict'` throws a `ResponseValidationError` (with the body and
   * the idempotency key: the write may have happened); `'off'` skips the checks. Fields the spec leaves
   * open are never required. Run your tests with `'strict'` (or set `PARTNER_EQUITY_RESPONSE_VALIDATION=strict`).
   * @default the `PARTNER_EQUITY_RESPONSE_VALIDATION` environment variable, else 'warn'
   */
  responseValidation?: ResponseValidationMode | undefined;
  /**
   * Where access and refresh tokens are kept. Give a shared store (`RedisTokenStore` from
   * `@partner-equity/sdk/redis`) so several processes use one token chain; a `MemoryTokenStore` given to
   * several clients of one `clientId` shares it in the process.
   * @default a store of this client's own, in memory
   */
  tokenStore?: TokenStore | undefined;
  /**
   * The OpenTelemetry tracer provider for the SDK's spans. Without it the global one is used (registered by
   * `NodeSDK.start()` or `provider.register()`); with neither, or without `@opentelemetry/api` installed,
   * tracing is off and costs nothing. See docs/observability.md.
   * @default the global tracer provider
   */
  tracerProvider?: TracerProviderLike | undefined;
  /**
   * Send the active trace context (`traceparent`, by the global propagator) with every API request. Off by
   * default: the API's spec does not say the service reads it.
   * @default false
   */
  propagateTraceContext?: boolean | undefined;
  /**
   * Pace requests to the rate limit the service announces (`RateLimit`/`RateLimit-Policy`, `X-RateLimit-*`,
   * `Retry-After`) or shows by throttling (429s): requests wait their turn instead of failing. `false`
   * sends every request at once, as before, and leaves 429s to the retries. See docs/errors-and-retries.md.
   * @default true
   */
  rateLimit?: boolean | undefined;
  /**
   * Longest total wait for the rate limit in one call (its turn, and `Retry-After`s of 429s), in ms. Past
   * it the call throws `RateLimitError` with `waitedMs`. Also a per-call option. At most 2^31 - 1 (as every
   * duration option: the longest timer Node.js sets).
   * @default 60000
   */
  maxRateLimitWait?: number | undefined;
  /**
   * Where the rate budget is kept. Give `new RedisRateLimitStore({ client })` from
   * `@partner-equity/sdk/redis` so every instance of a fleet shares one budget per `clientId`.
   * @default the client's own, in memory
   */
  rateLimitStore?: RateLimitStore | undefined;
  /** @internal A ready-made authenticator instead of credentials (tests and advanced wiring). */
  authenticator?: Authenticator | undefined;
}

const fn = <T>() => z.custom<T>((value) => typeof value === 'function', { message: 'must be a function' });
// An object with these methods (a logger, a store, a clock…): `must be a TokenStore (read, lease, … methods)`.
const withMethods = <T>(kind: string, ...names: string[]) =>
  z
    .custom<T>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function'),
      { message: `must be ${kind} (${names.join(', ')} methods)` },
    )
    .optional();

const httpUrl = (what: string) =>
  z.string().refine(
    (value) => {
      const url = URL.parse(value);
      return url !== null && /^https?:$/.test(url.protocol) && url.username === '' && url.password === '';
    },
    { message: `must be an absolute http(s) URL (${what})` },
  );

const optionsSchema = z
  .strictObject({
    baseUrl: httpUrl('the environment base URL').refine(
      (value) => !URL.canParse(value) || (new URL(value).search === '' && new URL(value).hash === ''),
      { message: 'must not have a query string or fragment' },
    ),
    clientId: z.string().min(1).optional(),
    issuer: httpUrl('your own API base URL').optional(),
    privateKey: z.unknown().optional(),
    signer: fn<Signer>().optional(),
    keyId: z.string().min(1).optional(),
    assertionAlgorithm: z.enum(['EdDSA', 'Ed25519']).optional(),
    maxRetries: z.number().int().min(0).max(20).optional(),
    timeout: milliseconds().optional(),
    deadline: milliseconds().optional(),
    retry: z
      .strictObject({
        initialDelayMs: milliseconds({ zero: true }).optional(),
        maxDelayMs: milliseconds({ zero: true }).optional(),
        maxRetryAfterMs: milliseconds({ zero: true }).optional(),
        random: fn<() => number>().optional(),
      })
      .optional(),
    fetch: fn<typeof globalThis.fetch>().optional(),
    dispatcher: withMethods<Dispatcher>('an undici Dispatcher', 'dispatch'),
    logger: withMethods<Logger>('a logger', 'debug', 'info', 'warn', 'error'),
    logLevel: z.enum(LOG_LEVELS).optional(),
    defaultHeaders: HeadersSchema.optional(),
    allowInsecureHttp: z.boolean().optional(),
    logPersonalData: z.boolean().optional(),
    clock: withMethods<Clock>('a clock', 'now', 'sleep'),
    maxResponseBytes: z.number().int().positive().optional(),
    responseValidation: z.enum(RESPONSE_VALIDATION_MODES).optional(),
    tokenStore: withMethods<TokenStore>('a TokenStore', 'read', 'lease', 'takeRefreshToken', 'write'),
    tracerProvider: withMethods<TracerProviderLike>('a TracerProvider', 'getTracer'),
    propagateTraceContext: z.boolean().optional(),
    rateLimit: z.boolean().optional(),
    maxRateLimitWait: milliseconds({ zero: true }).optional(),
    rateLimitStore: withMethods<RateLimitStore>('a RateLimitStore', 'take', 'push'),
    authenticator: withMethods<Authenticator>('an Authenticator', 'getToken', 'onUnauthorized'),
  })
  .superRefine((options, ctx) => {
    const issue = (when: boolean, field: string, message: string) =>
      when && ctx.addIssue({ code: 'custom', path: [field], message });
    issue(
      options.allowInsecureHttp !== true && isCleartextToNetwork(options.baseUrl),
      'baseUrl',
      'is plain http to a host other than this machine, so tokens would travel in cleartext: use https, or set allowInsecureHttp: true for a network you trust',
    );
    issue(
      options.fetch !== undefined && options.dispatcher !== undefined,
      'dispatcher',
      'cannot be combined with fetch',
    );
    issue(
      options.privateKey !== undefined && options.signer !== undefined,
      'signer',
      'give either privateKey or signer, not both',
    );
    // Credentials come as a set: partial credentials would only fail later, on the first bearer call.
    const given = (options.clientId ?? options.issuer ?? options.privateKey ?? options.signer) !== undefined;
    issue(given && options.clientId === undefined, 'clientId', 'is required with credentials');
    issue(given && options.issuer === undefined, 'issuer', 'is required with credentials');
    const keyless = options.privateKey === undefined && options.signer === undefined;
    issue(given && keyless, 'privateKey', 'privateKey or signer is required with credentials');
  });

/**
 * Checks `options` and throws an {@link InputValidationError} that names every bad field. Values are never
 * quoted in the message (some are secrets).
 */
export function validateClientOptions(options: unknown): ClientOptions {
  return checkOptions<ClientOptions>('client options', optionsSchema, options);
}
