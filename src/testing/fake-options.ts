import type { FakeAdminApiOptions } from './admin-api/admin-api-gate.js';
import type { FakeRateLimitOption } from './fake-rate-limit.js';
import type { ManualClock } from './manual-clock.js';
import type { FakeProfileName, ProfileDefaults } from './profiles/fake-profile.js';
import type { FakeSettings } from './services.js';
import { checkSeed, type FakeSeed } from './state/seed-spvs.js';
import type { FakeWebhookOptions } from './webhooks/fake-webhook-options.js';
import type { EmittedEvent } from './webhooks/webhook-types.js';
import { MAX_UPLOAD_BYTES } from './wire/uploads.js';

/** Options of `new FakePartnerEquity(options)`; every one has a default that matches the spec. */
export interface FakePartnerEquityOptions {
  /**
   * Which server to play where the spec says "not shown": the fake's own choices, or another plausible
   * choice for every one of them (`null` for absent fields, `+00:00` timestamps with microseconds, summary
   * list entries, contracts behind a bearer token…; `docs/spec-gaps.md` lists both side by side). What the spec
   * states is the same in both. Several options below default differently per profile.
   * @default the `PARTNER_EQUITY_FAKE_PROFILE` environment variable, else 'default'
   */
  profile?: FakeProfileName;
  /**
   * The base URL the fake answers under MSW (and the `aud` assertions must carry there). Once
   * `listen()` runs, the loopback URL is served too. An origin only: no path.
   * @default 'https://fake-partner-equity.test'
   */
  baseUrl?: string;
  /** The clock for all of the fake's time; pass the same one to the SDK client. @default new ManualClock() */
  clock?: ManualClock;
  /** Simulates a server clock this many ms ahead (negative: behind) of `clock`. @default 0 */
  clockOffsetMs?: number;
  /** Tolerated clock skew on assertion `iat`/`exp`, in seconds. @default 5 (alternate profile: 10) */
  skewSeconds?: number;
  /** Longest accepted assertion lifetime (`exp - iat`), in seconds. @default 300 (alternate profile: 60) */
  maxAssertionLifetimeSeconds?: number;
  /** @default 3600 */
  accessTokenTtlSeconds?: number;
  /** @default 2592000 (30 days) */
  refreshTokenTtlSeconds?: number;
  /** Upload size limit in bytes (413 above). @default 10485760 (10 MiB) */
  uploadLimitBytes?: number;
  /** Largest JSON or form body in bytes (413 above). @default 5242880 (5 MiB; alternate profile: 2 MiB) */
  maxJsonBodyBytes?: number;
  /**
   * A proxy's cap in front of the service: a JSON request body over this many bytes is answered 413 with an
   * HTML page (as nginx's `client_max_body_size` does), before the service sees it. @default no cap
   */
  maxBodyBytes?: number | undefined;
  /** Rows per `POST /v1/investors` (422 above). @default 500 (alternate profile: 1000) */
  maxInvestorRows?: number;
  /** Rows per `POST /v1/spvs/{spv_slug}/subscriptions` (422 above). @default 500 (alternate profile: 1000) */
  maxSubscriptionRows?: number;
  /** @default 86400000 (24 h) */
  idempotencyRetentionMs?: number;
  /** Real-time limit for one webhook delivery attempt to answer. @default 5000 */
  webhookTimeoutMs?: number;
  /** Reconciler sweep interval on the fake clock. @default 60000 */
  reconcilerIntervalMs?: number;
  /**
   * Signing scheme, retry signing and payload shape of the webhooks sent.
   * @default { scheme: 'standard-webhooks', retrySigning: 'fresh', payloads: 'full' } ('minimal' payloads in
   * the alternate profile)
   */
  webhooks?: FakeWebhookOptions | undefined;
  /**
   * Also serve the admin API (approve, reject, cancel, complete, register a client, lists with counts and
   * filters) as JSON over HTTP under a path prefix, on the loopback server and in `handlers`; `true` means
   * `/__admin`. Off by default: the real service has no such routes, so a partner's tests never see them
   * unless they ask. `partner-equity mock` turns it on. Over a socket it answers only requests addressed to
   * this machine (`Host`: `localhost`, `127.0.0.0/8`, `[::1]`, or `allowHosts`), from no web page of another
   * origin, with JSON bodies of at most 1 MiB, and with `Authorization: Bearer <token>` when `token` is set.
   * @default false
   */
  adminApi?: boolean | FakeAdminApiOptions;
  /** Approve each SPV request the moment it is created (`fake.admin.autoApproveSpvRequests`). @default false */
  autoApproveSpvRequests?: boolean;
  /**
   * A per-client rate limit on the bearer routes, as a service's gateway enforces one: `'10/s'` (also
   * `'100/10s'`, `'600/min'`) or `{ limit: 10, windowMs: 1000 }`, in fixed windows on the fake's clock. Every
   * answer carries `RateLimit-Policy`, `RateLimit` and `X-RateLimit-*`; past the budget it answers 429 with
   * `Retry-After`. Off by default (the spec states no limit).
   */
  rateLimit?: FakeRateLimitOption | undefined;
  /**
   * Called with each event as the fake emits it, registered endpoints or not (`partner-equity mock` prints a
   * line when a request is approved). Also in `fake.webhooks.events`.
   * @example
   * ```ts
   * new FakePartnerEquity({ onEvent: (event) => console.log(event.type, event.data) });
   * ```
   */
  onEvent?: ((event: EmittedEvent) => void) | undefined;
  /**
   * What every client starts with once registered (`createPartner()`, `admin.registerClient`): approved
   * SPVs in the currencies and share classes given, to rehearse subscriptions against
   * (`partner-equity mock --spv EUR:"Class A"`). Their slugs are in `fake.admin.snapshot().spvs`.
   * @example
   * ```ts
   * new FakePartnerEquity({ seed: { spvs: [{ currency: 'EUR' }, { currency: 'USD', shareClasses: ['A', 'B'] }] } });
   * ```
   */
  seed?: FakeSeed | undefined;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const out = value ?? fallback;
  if (!(Number.isFinite(out) && out > 0))
    throw new RangeError(`FakePartnerEquity: ${name} must be a positive number`);
  return out;
}

/** Applies defaults (the profile's where it has one) and checks values once, so a typo fails where the fake is built. */
export function resolveSettings(options: FakePartnerEquityOptions, defaults: ProfileDefaults): FakeSettings {
  const base = new URL(options.baseUrl ?? 'https://fake-partner-equity.test');
  if (base.pathname !== '/' || base.search !== '' || base.hash !== '') {
    throw new TypeError(
      'FakePartnerEquity: baseUrl must be an origin such as https://fake-partner-equity.test',
    );
  }
  return {
    baseUrl: base.origin,
    skewSeconds: positive('skewSeconds', options.skewSeconds, defaults.skewSeconds),
    maxAssertionLifetimeSeconds: positive(
      'maxAssertionLifetimeSeconds',
      options.maxAssertionLifetimeSeconds,
      defaults.maxAssertionLifetimeSeconds,
    ),
    accessTokenTtlSeconds: positive('accessTokenTtlSeconds', options.accessTokenTtlSeconds, 3600),
    refreshTokenTtlSeconds: positive('refreshTokenTtlSeconds', options.refreshTokenTtlSeconds, 2_592_000),
    uploadLimitBytes: positive('uploadLimitBytes', options.uploadLimitBytes, MAX_UPLOAD_BYTES),
    maxJsonBodyBytes: positive('maxJsonBodyBytes', options.maxJsonBodyBytes, defaults.maxJsonBodyBytes),
    maxInvestorRows: positive('maxInvestorRows', options.maxInvestorRows, defaults.maxInvestorRows),
    maxSubscriptionRows: positive(
      'maxSubscriptionRows',
      options.maxSubscriptionRows,
      defaults.maxSubscriptionRows,
    ),
    idempotencyRetentionMs: positive('idempotencyRetentionMs', options.idempotencyRetentionMs, 86_400_000),
    webhookTimeoutMs: positive('webhookTimeoutMs', options.webhookTimeoutMs, 5_000),
    reconcilerIntervalMs: positive('reconcilerIntervalMs', options.reconcilerIntervalMs, 60_000),
    maxBodyBytes:
      options.maxBodyBytes === undefined ? undefined : positive('maxBodyBytes', options.maxBodyBytes, 0),
    seed: checkSeed(options.seed),
  };
}
