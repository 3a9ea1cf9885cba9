import type { Tracing } from '../../tracing/tracing.js';
import type { ChunkFits } from '../bulk/chunk-fit.js';
import type { Clock } from '../clock.js';
import type { Logger, LogLevel } from '../logging/logger.js';
import type { SecretRegistry } from '../logging/secret-registry.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { Transport } from '../transport/transport.js';
import type { Authenticator } from './authenticator.js';
import type { ResponseValidation } from './response-validation.js';
import type { RetryConfig } from './retry-policy.js';

/** Everything the pipeline needs; the client builds it once from validated options. */
export interface RequesterConfig {
  /** The API's base URL; a base path is kept. */
  baseUrl: URL;
  transport: Transport;
  clock: Clock;
  /** Supplies bearer tokens for routes that need them. */
  authenticator?: Authenticator | undefined;
  /** Already filtered by level. */
  logger: Logger;
  /** @default 2 */
  maxRetries: number;
  /** Per-attempt timeout in ms. @default 60_000 */
  timeout: number;
  /** Total ms across all attempts and waits of one call. */
  deadline?: number | undefined;
  retry: RetryConfig;
  defaultHeaders: Record<string, string>;
  /** The logger's level; per-attempt debug fields are only built when it is `debug`. */
  logLevel?: LogLevel | undefined;
  /** What to do with 2xx bodies that break the spec (see `responseValidation` in the client options). */
  validation: ResponseValidation;
  /** The client's tokens and assertions, redacted by value from errors and log lines. */
  secrets?: SecretRegistry | undefined;
  /** Where spans go (OpenTelemetry); off when `@opentelemetry/api` is absent or no provider is registered. */
  tracing?: Tracing | undefined;
  /** Log personal data fields (e-mail, names, date of birth…) instead of masking them. @default false */
  logPersonalData?: boolean | undefined;
  /** Paces bearer requests (shared by derived clients); none with `rateLimit: false`. */
  rateLimiter?: RateLimiter | undefined;
  /** Longest total wait for the rate limit in one call, in ms. @default 60_000 */
  maxRateLimitWait?: number | undefined;
  /** `closed` once the client's `close()` was called (shared by derived clients): every call then fails
   * with `ClientClosedError`. A field read on each call, not a call. */
  lifecycle?: { readonly closed: boolean } | undefined;
  /** What bulk calls learned of the service's request-size limit; shared by `withOptions()` clients. */
  chunkFits?: ChunkFits | undefined;
}
