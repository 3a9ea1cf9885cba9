import type { WebhookSchemeInput } from '../webhooks/scheme/webhook-scheme.js';
import type { FakeSnapshot, FakeWebhookTarget, PublicJwk } from './admin.js';
import { DEFAULT_ADMIN_API_PREFIX } from './admin-api/admin-api-gate.js';
import type {
  DeliveryListFilter,
  FakeAdminList,
  PersonListFilter,
  SpvRequestListFilter,
  SubscriptionListFilter,
} from './admin-lists.js';
import type { FakeDelivery, FakePerson, FakeSubscription } from './admin-views.js';
import type { FakeRequestReport } from './request-log.js';
import type { SpvRequest } from './wire/spv-requests.js';
import type { SubscriptionResult } from './wire/subscriptions.js';

/** Options of {@link fakeAdminClient}. */
export interface FakeAdminClientOptions {
  /** Where the fake answers: `PE_BASE_URL` of `partner-equity mock`, or `(await fake.listen()).baseUrl`. */
  baseUrl: string;
  /** The mock's `PE_ADMIN_TOKEN`, when it requires one; sent as `Authorization: Bearer …`. */
  adminToken?: string | undefined;
  /** @default '/__admin' */
  prefix?: string | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** The admin API's answer to a request it refused: `status` and its `code` (`not_found`, `conflict`…). */
export class FakeAdminApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(method: string, path: string, status: number, code: string, detail: string) {
    super(`${method} ${path}: ${status} ${code}: ${detail}`);
    this.name = 'FakeAdminApiError';
    this.status = status;
    this.code = code;
  }
}

/** A settings change or view of the admin API (`GET`/`PUT /settings`). */
export interface FakeAdminSettings {
  autoApproveSpvRequests: boolean;
}

/** The admin API over HTTP, typed: what `fake.admin` does in-process, for a fake in another process. */
export interface FakeAdminClient {
  /** `GET /__admin/spv-requests`: the fake's SPV requests, filtered. */
  listSpvRequests(filter?: SpvRequestListFilter): Promise<FakeAdminList<SpvRequest>>;
  /** Approves a `pending-review` request, materialising its SPV. */
  approveSpvRequest(slug: string): Promise<SpvRequest>;
  /** Rejects a `pending-review` request, with an optional reason. */
  rejectSpvRequest(slug: string, reason?: string): Promise<SpvRequest>;
  /** Cancels a `pending-review` request, as an administrator would. */
  cancelSpvRequest(slug: string): Promise<SpvRequest>;
  /** `GET /__admin/subscriptions`: the fake's subscriptions, filtered. */
  listSubscriptions(filter?: SubscriptionListFilter): Promise<FakeAdminList<FakeSubscription>>;
  /** Completes a subscription (emitting `subscription.completed` unless `emitEvent` is `false`). */
  completeSubscription(slug: string, options?: { emitEvent?: boolean }): Promise<SubscriptionResult>;
  /** Cancels a subscription. */
  cancelSubscription(slug: string): Promise<SubscriptionResult>;
  /** `GET /__admin/persons`: the investors (persons) the fake holds, filtered. */
  listPersons(filter?: PersonListFilter): Promise<FakeAdminList<FakePerson>>;
  /** `GET /__admin/deliveries`: webhook deliveries and their attempts, filtered. */
  listDeliveries(filter?: DeliveryListFilter): Promise<FakeAdminList<FakeDelivery>>;
  /** `GET /__admin/snapshot`: everything the fake holds, with ISO timestamps. */
  snapshot(): Promise<FakeSnapshot>;
  /** Registers a partner client and its public key (the spec shows no endpoint for this). */
  registerClient(input: {
    clientId: string;
    issuer: string;
    publicKey: string | PublicJwk;
    applicationName?: string;
    tenantSlug?: string;
    provisioned?: boolean;
  }): Promise<{ clientId: string; issuer: string; applicationName: string; provisioned: boolean }>;
  /**
   * `GET /__admin/requests`: what the fake answered, counted by status and by route and status (429s of
   * `--rate-limit`, 413s of `--max-body`, injected faults), and the newest `limit` requests (100; 0 for
   * counts only), without their headers.
   */
  requests(options?: { limit?: number }): Promise<FakeRequestReport>;
  /** The fake's settings (whether SPV requests are approved automatically). */
  settings(): Promise<FakeAdminSettings>;
  /** Changes some settings; the others are kept. */
  updateSettings(change: Partial<FakeAdminSettings>): Promise<FakeAdminSettings>;
  /** Where webhooks go now, and how they are signed (never the secret). */
  webhookTarget(): Promise<FakeWebhookTarget>;
  /** `secret` is in the answer only when the fake generated it: the one time it is shown. */
  setWebhookTarget(change: {
    url?: string | null;
    secret?: string;
    scheme?: WebhookSchemeInput;
  }): Promise<FakeWebhookTarget & { secret?: string }>;
}

type Filter = Record<string, string | number | readonly string[] | undefined>;

function query(filter: Filter = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) {
    if (value !== undefined) params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A typed client of the fake's admin API (`partner-equity mock`, or `new FakePartnerEquity({ adminApi })`
 * over a socket): list, review and configure from a script or a test in another process. Every request
 * says `content-type: application/json` and carries the admin token when given, as the API's gate asks;
 * a refusal throws {@link FakeAdminApiError}.
 * @example
 * ```ts
 * const admin = fakeAdminClient({ baseUrl: process.env.PE_BASE_URL!, adminToken: process.env.PE_ADMIN_TOKEN });
 * const { items } = await admin.listPersons({ clientId: 'client_ci' });
 * await admin.setWebhookTarget({ url: 'http://127.0.0.1:4000/webhooks', secret: process.env.PE_WEBHOOK_SECRET });
 * ```
 */
export function fakeAdminClient(options: FakeAdminClientOptions): FakeAdminClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}${options.prefix ?? DEFAULT_ADMIN_API_PREFIX}`;
  const token = options.adminToken;
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: object): Promise<T> => {
    const response = await (options.fetch ?? fetch)(`${base}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json().catch(() => ({}))) as { code?: string; detail?: string };
    if (!response.ok) {
      const where = path.split('?')[0]!;
      throw new FakeAdminApiError(
        method,
        where,
        response.status,
        answer.code ?? 'error',
        answer.detail ?? '',
      );
    }
    return answer as T;
  };
  const slugPath = (kind: string, slug: string, action: string) =>
    `/${kind}/${encodeURIComponent(slug)}/${action}`;
  return {
    listSpvRequests: (filter) => call('GET', `/spv-requests${query(filter as Filter)}`),
    approveSpvRequest: (slug) => call('POST', slugPath('spv-requests', slug, 'approve')),
    rejectSpvRequest: (slug, reason) =>
      call('POST', slugPath('spv-requests', slug, 'reject'), reason === undefined ? {} : { reason }),
    cancelSpvRequest: (slug) => call('POST', slugPath('spv-requests', slug, 'cancel')),
    listSubscriptions: (filter) => call('GET', `/subscriptions${query(filter as Filter)}`),
    completeSubscription: (slug, completion = {}) =>
      call('POST', slugPath('subscriptions', slug, 'complete'), completion),
    cancelSubscription: (slug) => call('POST', slugPath('subscriptions', slug, 'cancel')),
    listPersons: (filter) => call('GET', `/persons${query(filter as Filter)}`),
    listDeliveries: (filter) => call('GET', `/deliveries${query(filter as Filter)}`),
    snapshot: () => call('GET', '/snapshot'),
    registerClient: (input) => call('POST', '/clients', input),
    requests: (options = {}) => call('GET', `/requests${query(options)}`),
    settings: () => call('GET', '/settings'),
    updateSettings: (change) => call('PUT', '/settings', change),
    webhookTarget: () => call('GET', '/webhooks'),
    setWebhookTarget: (change) => call('PUT', '/webhooks', change),
  };
}
