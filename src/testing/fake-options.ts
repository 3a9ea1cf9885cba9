import { MAX_INVESTOR_ROWS } from '../schemas/investors.js';
import { MAX_SUBSCRIPTION_ROWS } from '../schemas/subscriptions.js';
import { MAX_UPLOAD_BYTES } from '../schemas/uploads.js';
import type { ManualClock } from './manual-clock.js';
import type { FakeSettings } from './services.js';

/** Options of `new FakePartnerEquity(options)`; every one has a default that matches the spec. */
export interface FakePartnerEquityOptions {
  /**
   * The base URL the fake answers under MSW (and the `aud` assertions must carry there). Once
   * `listen()` runs, the loopback URL is served too. An origin only: no path.
   * @default 'http://fake-partner-equity.test'
   */
  baseUrl?: string;
  /** The clock for all of the fake's time; pass the same one to the SDK client. @default new ManualClock() */
  clock?: ManualClock;
  /** Simulates a server clock this many ms ahead (negative: behind) of `clock`. @default 0 */
  clockOffsetMs?: number;
  /** Tolerated clock skew on assertion `iat`/`exp`, in seconds. @default 5 */
  skewSeconds?: number;
  /** Longest accepted assertion lifetime (`exp - iat`), in seconds. @default 300 */
  maxAssertionLifetimeSeconds?: number;
  /** @default 3600 */
  accessTokenTtlSeconds?: number;
  /** @default 2592000 (30 days) */
  refreshTokenTtlSeconds?: number;
  /** Upload size limit in bytes (413 above). @default 10485760 (10 MiB) */
  uploadLimitBytes?: number;
  /** Largest JSON or form body in bytes (413 above). @default 5242880 (5 MiB) */
  maxJsonBodyBytes?: number;
  /** Rows per `POST /v1/investors` (422 above). @default 500 */
  maxInvestorRows?: number;
  /** Rows per `POST /v1/spvs/{spv_slug}/subscriptions` (422 above). @default 500 */
  maxSubscriptionRows?: number;
  /** @default 86400000 (24 h) */
  idempotencyRetentionMs?: number;
  /** Real-time limit for one webhook delivery attempt to answer. @default 5000 */
  webhookTimeoutMs?: number;
  /** Reconciler sweep interval on the fake clock. @default 60000 */
  reconcilerIntervalMs?: number;
  /**
   * Also serve the admin API (approve, reject, cancel, complete, register a client, lists with counts and
   * filters) as JSON over HTTP under a path prefix, on the loopback server and in `handlers`; `true` means
   * `/__admin`. Off by default: the real service has no such routes, so a partner's tests never see them
   * unless they ask. `partner-equity mock` turns it on.
   * @default false
   */
  adminApi?: boolean | { prefix?: string };
  /** Approve each SPV request the moment it is created (`fake.admin.autoApproveSpvRequests`). @default false */
  autoApproveSpvRequests?: boolean;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const out = value ?? fallback;
  if (!(Number.isFinite(out) && out > 0))
    throw new RangeError(`FakePartnerEquity: ${name} must be a positive number`);
  return out;
}

/** Applies defaults and checks values once, so a typo fails where the fake is built. */
export function resolveSettings(options: FakePartnerEquityOptions): FakeSettings {
  const base = new URL(options.baseUrl ?? 'http://fake-partner-equity.test');
  if (base.pathname !== '/' || base.search !== '' || base.hash !== '') {
    throw new TypeError(
      'FakePartnerEquity: baseUrl must be an origin such as http://fake-partner-equity.test',
    );
  }
  return {
    baseUrl: base.origin,
    skewSeconds: positive('skewSeconds', options.skewSeconds, 5),
    maxAssertionLifetimeSeconds: positive(
      'maxAssertionLifetimeSeconds',
      options.maxAssertionLifetimeSeconds,
      300,
    ),
    accessTokenTtlSeconds: positive('accessTokenTtlSeconds', options.accessTokenTtlSeconds, 3600),
    refreshTokenTtlSeconds: positive('refreshTokenTtlSeconds', options.refreshTokenTtlSeconds, 2_592_000),
    uploadLimitBytes: positive('uploadLimitBytes', options.uploadLimitBytes, MAX_UPLOAD_BYTES),
    maxJsonBodyBytes: positive('maxJsonBodyBytes', options.maxJsonBodyBytes, 5 * 1024 * 1024),
    maxInvestorRows: positive('maxInvestorRows', options.maxInvestorRows, MAX_INVESTOR_ROWS),
    maxSubscriptionRows: positive('maxSubscriptionRows', options.maxSubscriptionRows, MAX_SUBSCRIPTION_ROWS),
    idempotencyRetentionMs: positive('idempotencyRetentionMs', options.idempotencyRetentionMs, 86_400_000),
    webhookTimeoutMs: positive('webhookTimeoutMs', options.webhookTimeoutMs, 5_000),
    reconcilerIntervalMs: positive('reconcilerIntervalMs', options.reconcilerIntervalMs, 60_000),
  };
}
