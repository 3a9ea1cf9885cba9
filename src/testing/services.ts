import type { WebhookEventType } from '../schemas/events.js';
import type { ClientRegistry } from './auth/client-registry.js';
import type { TokenStore } from './auth/token-store.js';
import type { FakeRateLimit } from './fake-rate-limit.js';
import type { FaultInjector } from './fault-injector.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { ManualClock } from './manual-clock.js';
import type { FakeProfile } from './profiles/fake-profile.js';
import type { RecordedRequest, TokenRequestRecord } from './request-log.js';
import type { FakeState } from './state/fake-state.js';
import type { FakeSeed } from './state/seed-spvs.js';

/** Resolved settings (every option with its default applied). */
export interface FakeSettings {
  baseUrl: string;
  skewSeconds: number;
  maxAssertionLifetimeSeconds: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  uploadLimitBytes: number;
  maxJsonBodyBytes: number;
  maxInvestorRows: number;
  maxSubscriptionRows: number;
  idempotencyRetentionMs: number;
  webhookTimeoutMs: number;
  reconcilerIntervalMs: number;
  /** The proxy's JSON body cap (413 with an HTML page above); none when undefined. */
  maxBodyBytes?: number | undefined;
  /** What each registered client starts with. */
  seed?: FakeSeed | undefined;
}

/** What routes, admin controls and the pipeline share: one instance per fake. @internal */
export interface FakeServices {
  readonly settings: FakeSettings;
  /** The server the fake plays where the spec is silent. */
  readonly profile: FakeProfile;
  readonly clock: ManualClock;
  /** The server's time: the clock plus the simulated server clock offset. */
  now(): number;
  readonly state: FakeState;
  readonly clients: ClientRegistry;
  readonly tokens: TokenStore;
  readonly idempotency: IdempotencyStore;
  readonly faults: FaultInjector;
  /** The per-client rate limit (option `rateLimit`), when one is set. */
  readonly rateLimit?: FakeRateLimit | undefined;
  /** Records an event and hands it to the webhook sender. */
  emit(type: WebhookEventType, clientId: string, data: object): void;
  /** Replay protection for assertions: false when `id` was seen before. */
  rememberAssertion(id: string, expiresAtSeconds: number): boolean;
  recordRequest(entry: RecordedRequest): void;
  recordTokenRequest(entry: TokenRequestRecord): void;
  /** True for the origins this fake answers (its `baseUrl` and, once listening, the loopback URL). */
  servesOrigin(origin: string): boolean;
  /** Aborted by `fake.close()`, ending held responses. */
  readonly closed: AbortSignal;
}
