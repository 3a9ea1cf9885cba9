import { generateKeyPairSync } from 'node:crypto';
import { inspect } from 'node:util';
import type { HttpHandler } from 'msw/http';
import { getResponse } from 'msw/utils/get-response';
import type { WebhookEventType } from '../schemas/events.js';
import { FakeAdmin } from './admin.js';
import { adminApiSettings } from './admin-api/admin-api-gate.js';
import { createAdminApiHandler } from './admin-api/admin-api-handler.js';
import { ClientRegistry } from './auth/client-registry.js';
import { TokenStore } from './auth/token-store.js';
import { type FakePartnerEquityOptions, resolveSettings } from './fake-options.js';
import { FakeRateLimit } from './fake-rate-limit.js';
import { FakeWebhooks } from './fake-webhooks.js';
import { FaultInjector } from './fault-injector.js';
import { IdempotencyStore } from './idempotency-store.js';
import { randomId } from './ids.js';
import { type LoopbackServer, startLoopbackServer } from './loopback-server.js';
import { ManualClock } from './manual-clock.js';
import { createHandlers } from './msw-handlers.js';
import type { FakeProfileName } from './profiles/fake-profile.js';
import { profileNamed } from './profiles/profile-named.js';
import {
  countRequests,
  type FakeRequestCounts,
  type RecordedRequest,
  type TokenRequestRecord,
} from './request-log.js';
import { allRoutes } from './routes/all-routes.js';
import type { FakeServices, FakeSettings } from './services.js';
import { FakeState } from './state/fake-state.js';
import { iso } from './state/resources.js';
import { emitSubscriptionCompleted } from './state/subscription-events.js';
import { eventPayload } from './webhooks/event-payload.js';
import { type FakeWebhookSettings, resolveFakeWebhookOptions } from './webhooks/fake-webhook-options.js';
import { startReconciler } from './webhooks/reconciler.js';
import { WebhookSender } from './webhooks/webhook-sender.js';
import type { EmittedEvent } from './webhooks/webhook-types.js';

/**
 * Credentials of a partner the fake registered, exactly the four client options: spread them into
 * `new PartnerEquity({ ...partner, clock: fake.clock })`.
 */
export interface FakePartnerCredentials {
  baseUrl: string;
  clientId: string;
  issuer: string;
  /** PKCS#8 PEM of the Ed25519 key (hidden from `JSON.stringify` and `util.inspect`). */
  privateKey: string;
}

/** Options of {@link FakePartnerEquity.createPartner}. */
export interface CreatePartnerOptions {
  /** `false` registers a client whose partner endpoints answer 403. @default true */
  provisioned?: boolean;
  clientId?: string;
  issuer?: string;
  applicationName?: string;
  tenantSlug?: string;
}

/**
 * A stateful, in-memory Partner Equity API for tests: real EdDSA assertion checks, refresh rotation with
 * reuse detection, idempotency, `client_id` scoping, the SPV request lifecycle, investors, subscriptions,
 * uploads, contracts, `/openapi.json`, signed webhooks with the spec's retry schedule, an injectable
 * clock and fault injection. Run it on a loopback port (`listen()`) or in-process through MSW (`handlers`).
 * Where the spec says "not shown" it answers as its `profile` says: its own choices (`'default'`), or
 * another plausible server's for every one of them (`'alternate'`, listed in `ALTERNATE_PROFILE_CHOICES`).
 *
 * @example
 * ```ts
 * const fake = new FakePartnerEquity();
 * await fake.listen();
 * const partner = await fake.createPartner();
 * const client = new PartnerEquity({ ...partner, clock: fake.clock });
 * // ...
 * await fake.close();
 *
 * const other = new FakePartnerEquity({ profile: 'alternate' }); // nulls, +00:00 timestamps, summaries…
 * ```
 */
export class FakePartnerEquity {
  /** The fake's clock: advance it to expire tokens, fire webhook retries and reconciler sweeps. */
  readonly clock: ManualClock;
  /** Inject status codes, `Retry-After`, delays and dropped connections. */
  readonly faults: FaultInjector;
  /** Administrator actions (approve, reject, complete…) and a state snapshot. */
  readonly admin: FakeAdmin;
  /** Webhook endpoints, events, deliveries and dead letters. */
  readonly webhooks: FakeWebhooks;
  /** The behaviour as MSW handlers: `setupServer(...fake.handlers)`. */
  readonly handlers: HttpHandler[];
  /** Simulated server clock offset (ms) over {@link clock}; change it at any time. */
  clockOffsetMs: number;
  /** Which server the fake plays where the spec is silent (option `profile`). */
  readonly profile: FakeProfileName;

  readonly #settings: FakeSettings;
  readonly #services: FakeServices;
  readonly #sender: WebhookSender;
  readonly #webhookSettings: FakeWebhookSettings;
  readonly #origins = new Set<string>();
  readonly #requests: RecordedRequest[] = [];
  readonly #tokenRequests: TokenRequestRecord[] = [];
  readonly #events: EmittedEvent[] = [];
  readonly #assertions = new Map<string, number>();
  readonly #closed = new AbortController();
  readonly #stopReconciler: () => void;
  #server: LoopbackServer | undefined;
  #partners = 0;

  constructor(options: FakePartnerEquityOptions = {}) {
    const profile = profileNamed(options.profile);
    this.profile = profile.name;
    this.#settings = resolveSettings(options, profile.defaults);
    this.clock = options.clock ?? new ManualClock();
    this.clockOffsetMs = options.clockOffsetMs ?? 0;
    this.#onEvent = options.onEvent;
    const routes = allRoutes(profile);
    this.faults = new FaultInjector(routes);
    this.#origins.add(this.#settings.baseUrl);
    const now = () => this.clock.now() + this.clockOffsetMs;
    this.#webhookSettings = resolveFakeWebhookOptions({
      ...options.webhooks,
      payloads: options.webhooks?.payloads ?? profile.webhookPayloads,
    });
    this.#sender = new WebhookSender(this.clock, now, this.#settings.webhookTimeoutMs, this.#webhookSettings);
    const state = new FakeState();
    this.#services = {
      settings: this.#settings,
      profile,
      clock: this.clock,
      now,
      state,
      clients: new ClientRegistry(),
      tokens: new TokenStore(
        now,
        this.#settings.accessTokenTtlSeconds,
        this.#settings.refreshTokenTtlSeconds,
      ),
      idempotency: new IdempotencyStore(this.#settings.idempotencyRetentionMs, now),
      faults: this.faults,
      rateLimit: options.rateLimit === undefined ? undefined : new FakeRateLimit(options.rateLimit, now),
      emit: (type, clientId, data) => {
        this.#emit(type, clientId, data);
        if (type === 'spv_request.created' && this.admin.autoApproveSpvRequests) {
          this.admin.approveSpvRequest((data as { spvRequestSlug: string }).spvRequestSlug);
        }
      },
      rememberAssertion: (id, expiresAt) => this.#rememberAssertion(id, expiresAt),
      recordRequest: (entry) => this.#requests.push(entry),
      recordTokenRequest: (entry) => this.#tokenRequests.push(entry),
      servesOrigin: (origin) => this.#origins.has(origin),
      closed: this.#closed.signal,
    };
    this.webhooks = new FakeWebhooks(this.#sender, this.#events);
    this.admin = new FakeAdmin(this.#services, this.webhooks);
    this.admin.autoApproveSpvRequests = options.autoApproveSpvRequests ?? false;
    const adminApi = adminApiSettings(options.adminApi);
    this.handlers = [
      // Before the partner routes, whose last handler answers 404 for every other path.
      ...(adminApi === undefined
        ? []
        : [
            createAdminApiHandler(
              this.admin,
              adminApi,
              this.#services.servesOrigin,
              this.faults,
              () => this.requests,
            ),
          ]),
      ...createHandlers(routes, this.#services),
    ];
    this.clock.setSettle(() => this.#sender.flush());
    this.#stopReconciler = startReconciler(
      this.clock,
      this.#settings.reconcilerIntervalMs,
      () => state.subscriptions.values(),
      (subscription) => emitSubscriptionCompleted(this.#services, subscription),
    );
  }

  /** The URL partners call: the loopback URL once listening, else the configured `baseUrl`. */
  get baseUrl(): string {
    return this.#server?.origin ?? this.#settings.baseUrl;
  }

  /** @internal The most of a request body a server of this fake keeps: an upload and its multipart framing. */
  get maxRequestBytes(): number {
    return Math.max(this.#settings.uploadLimitBytes + 1024 * 1024, this.#settings.maxJsonBodyBytes);
  }

  /** Every request answered, in arrival order. */
  get requests(): readonly RecordedRequest[] {
    return this.#requests;
  }

  /**
   * How many requests the fake answered, by status and by route and status (what `GET /__admin/requests`
   * reports): `fake.requestCounts().byStatus['429']`.
   */
  requestCounts(): FakeRequestCounts {
    return countRequests(this.#requests);
  }

  /** Every token endpoint call, including the refresh token presented. */
  get tokenRequests(): readonly TokenRequestRecord[] {
    return this.#tokenRequests;
  }

  /** Starts the loopback server (127.0.0.1, port 0) running {@link handlers}. */
  async listen(): Promise<{ baseUrl: string }> {
    if (this.#closed.signal.aborted) throw new Error('FakePartnerEquity: closed');
    if (this.#server !== undefined) throw new Error('FakePartnerEquity: already listening');
    const maxBody = this.maxRequestBytes;
    this.#server = await startLoopbackServer(async (request) => {
      const response = await getResponse(this.handlers, request);
      return response ?? new Response('{"code":"not_found"}', { status: 404 });
    }, maxBody);
    this.#origins.add(this.#server.origin);
    return { baseUrl: this.#server.origin };
  }

  /**
   * Registers a partner client with a fresh Ed25519 key pair. Call it after `listen()` so `baseUrl` is the
   * loopback URL.
   */
  async createPartner(options: CreatePartnerOptions = {}): Promise<FakePartnerCredentials> {
    this.#partners += 1;
    const n = this.#partners;
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const clientId = options.clientId ?? randomId('client', 12);
    const applicationName = options.applicationName ?? `Partner app ${n}`;
    const provisioned = options.provisioned ?? true;
    const issuer = options.issuer ?? `https://partner-${n}.example`;
    this.admin.registerClient({
      clientId,
      issuer,
      publicKey,
      provisioned,
      applicationName,
      tenantSlug: options.tenantSlug ?? `tenant-${n}`,
    });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const credentials: FakePartnerCredentials = { baseUrl: this.baseUrl, clientId, issuer, privateKey: pem };
    // Spreading still copies the key (the SDK needs it); serialising or inspecting the object does not.
    const redacted = () => ({ ...credentials, privateKey: '[redacted]' });
    Object.defineProperty(credentials, 'toJSON', { value: redacted, enumerable: false });
    Object.defineProperty(credentials, inspect.custom, { value: redacted, enumerable: false });
    return credentials;
  }

  /** Resolves when no webhook delivery is in flight. */
  async idle(): Promise<void> {
    await this.#sender.flush();
  }

  /** Stops the server, the reconciler and pending retries; ends held responses. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed.signal.aborted) return;
    this.#closed.abort();
    this.#stopReconciler();
    await this.#sender.close();
    await this.#server?.close();
  }

  readonly #onEvent: ((event: EmittedEvent) => void) | undefined;

  #emit(type: WebhookEventType, clientId: string, resource: object): void {
    const timestamp = iso(this.#services.now());
    const data = eventPayload(type, resource, this.#webhookSettings.payloads);
    const event: EmittedEvent = {
      id: randomId('msg'),
      type,
      clientId,
      timestamp,
      data,
      body: JSON.stringify({ type, timestamp, data }),
    };
    this.#events.push(event);
    this.#sender.dispatch(event);
    this.#onEvent?.(event);
  }

  #rememberAssertion(id: string, expiresAtSeconds: number): boolean {
    const nowSeconds = this.#services.now() / 1000;
    for (const [key, expiry] of this.#assertions) if (expiry < nowSeconds) this.#assertions.delete(key);
    if (this.#assertions.has(id)) return false;
    this.#assertions.set(id, expiresAtSeconds);
    return true;
  }
}
