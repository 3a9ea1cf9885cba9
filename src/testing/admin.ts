import type { KeyObject } from 'node:crypto';
import {
  type DeliveryListFilter,
  type FakeAdminList,
  listDeliveries,
  listPersons,
  listSpvRequests,
  listSubscriptions,
  type PersonListFilter,
  type SpvRequestListFilter,
  type SubscriptionListFilter,
} from './admin-lists.js';
import {
  type FakeDelivery,
  type FakePerson,
  type FakeSubscription,
  personView,
  subscriptionView,
} from './admin-views.js';
import type { FakeWebhooks } from './fake-webhooks.js';
import { randomId } from './ids.js';
import { type PublicJwk, publicKeyObject } from './public-key-object.js';
import type { FakeServices } from './services.js';
import type { PersonRecord, SpvRecord, SubscriptionRecord } from './state/records.js';
import { spvRequestResource, subscriptionResult } from './state/resources.js';
import { seedSpvs } from './state/seed-spvs.js';
import {
  approveSpvRequest,
  cancelSpvRequest,
  FakeAdminError,
  rejectSpvRequest,
} from './state/spv-request-lifecycle.js';
import { emitSubscriptionCompleted } from './state/subscription-events.js';
import type { SpvRequest } from './wire/spv-requests.js';
import type { SubscriptionResult } from './wire/subscriptions.js';

export type { PublicJwk };

/** Everything the fake holds, as copies (mutating them changes nothing); times are ISO 8601 strings. */
export interface FakeSnapshot {
  spvRequests: SpvRequest[];
  spvs: SpvRecord[];
  persons: FakePerson[];
  subscriptions: FakeSubscription[];
}

/** Where and how events are delivered, as the admin controls show it: never a secret. */
export interface FakeWebhookTarget {
  /** The scheme's name (`standard-webhooks`, `stripe`, … or a custom description's). */
  scheme: string;
  endpoints: { id: string; url: string; clientId?: string }[];
}

/**
 * What an administrator of the service does outside the partner API: review SPV requests, complete
 * subscriptions, onboard clients. Misuse (approving a cancelled request…) throws {@link FakeAdminError}.
 */
export class FakeAdmin {
  /**
   * Approve every SPV request the moment it is created, as an instant reviewer: the create call still
   * answers `pending-review`, then `spv_request.completed` follows and a read shows `approved`.
   * Set it from the `autoApproveSpvRequests` option, or at any time.
   * @default false
   */
  autoApproveSpvRequests = false;
  readonly #services: FakeServices;
  readonly #webhooks: FakeWebhooks;

  /** @internal */
  constructor(services: FakeServices, webhooks: FakeWebhooks) {
    this.#services = services;
    this.#webhooks = webhooks;
  }

  /** Approves a pending request: materialises the SPV and emits `spv_request.completed`. */
  approveSpvRequest(slug: string): SpvRequest {
    return spvRequestResource(approveSpvRequest(this.#services, slug));
  }

  /** Rejects a pending request; `reason` becomes `rejectionReason`. */
  rejectSpvRequest(slug: string, reason = 'Rejected on review'): SpvRequest {
    return spvRequestResource(rejectSpvRequest(this.#services, slug, reason));
  }

  /** Cancels a pending request, as an administrator. */
  cancelSpvRequest(slug: string): SpvRequest {
    return spvRequestResource(cancelSpvRequest(this.#services, slug));
  }

  /**
   * Marks a subscription `Completed`. The event `subscription.completed` goes out at once, unless
   * `emitEvent: false` simulates a skipped emit: then the 60 s reconciler sends it on its next sweep.
   */
  completeSubscription(subscriptionSlug: string, options: { emitEvent?: boolean } = {}): SubscriptionResult {
    const subscription = this.#open(subscriptionSlug, 'complete');
    subscription.status = 'completed';
    subscription.completedAt = this.#services.now();
    if (options.emitEvent !== false) emitSubscriptionCompleted(this.#services, subscription);
    return subscriptionResult(subscription);
  }

  /** Cancels a subscription (terminal: later uploads answer 409). No event. */
  cancelSubscription(subscriptionSlug: string): SubscriptionResult {
    const subscription = this.#open(subscriptionSlug, 'cancel');
    subscription.status = 'cancelled';
    return subscriptionResult(subscription);
  }

  /**
   * Creates an investor onboarded outside the partner API (no `partnerInvestorId`): upload events for
   * their subscriptions omit `partnerInvestorId`, as the spec's rule 1 says.
   */
  createPerson(
    clientId: string,
    fields: {
      email: string;
      firstName: string;
      lastName: string;
      dateOfBirth?: string;
      countryOfResidence?: string;
    },
  ): { servicePersonId: string } {
    this.#services.clients.require(clientId);
    const person: PersonRecord = {
      id: randomId('per'),
      clientId,
      email: fields.email,
      firstName: fields.firstName,
      lastName: fields.lastName,
      dateOfBirth: fields.dateOfBirth ?? '1980-01-01',
      countryOfResidence: fields.countryOfResidence ?? 'DE',
      createdAt: this.#services.now(),
    };
    this.#services.state.persons.set(person.id, person);
    return { servicePersonId: person.id };
  }

  /**
   * Registers a client with a public key you hold, e.g. the `publicKeyJwk` or `publicKeyPem` of
   * `generateKeyPair()`, or one kept in a KMS: SPKI PEM, a JWK (object or JSON text) or a `KeyObject`
   * (a private key registers its public half). `createPartner()` is the shortcut that also generates the
   * key. A `clientId` already registered throws {@link FakeAdminError}.
   */
  registerClient(options: {
    clientId: string;
    issuer: string;
    publicKey: string | PublicJwk | KeyObject;
    provisioned?: boolean | undefined;
    applicationName?: string | undefined;
    tenantSlug?: string | undefined;
  }): void {
    if (this.#services.clients.get(options.clientId) !== undefined) {
      throw new FakeAdminError(`Client ${options.clientId} is already registered`);
    }
    const key = publicKeyObject(options.publicKey);
    this.#services.clients.register({
      clientId: options.clientId,
      issuer: options.issuer,
      publicKey: key,
      provisioned: options.provisioned ?? true,
      applicationName: options.applicationName ?? options.clientId,
      tenantSlug: options.tenantSlug ?? `tenant-${options.clientId}`,
    });
    seedSpvs(this.#services, options.clientId, options.tenantSlug ?? `tenant-${options.clientId}`);
  }

  /** Turns the partner API on or off for a client (off: partner endpoints answer 403). */
  setProvisioned(clientId: string, provisioned: boolean): void {
    this.#services.clients.require(clientId).provisioned = provisioned;
  }

  /** Revokes every access and refresh token of a client (or of all clients): their next call gets 401. */
  revokeTokens(clientId?: string): void {
    this.#services.tokens.revoke(clientId);
  }

  /**
   * SPV requests matching `filter`, newest first, `limit` (50) at a time, with the total and a count per
   * status.
   */
  listSpvRequests(filter: SpvRequestListFilter = {}): FakeAdminList<SpvRequest> {
    return listSpvRequests(this.#services.state, filter);
  }

  /**
   * Subscriptions matching `filter`, newest first, `limit` (50) at a time, with the total and a count per
   * status.
   */
  listSubscriptions(filter: SubscriptionListFilter = {}): FakeAdminList<FakeSubscription> {
    return listSubscriptions(this.#services.state, filter);
  }

  /** Investors (persons), newest first, `limit` (50) at a time, with the total. */
  listPersons(filter: PersonListFilter = {}): FakeAdminList<FakePerson> {
    return listPersons(this.#services.state, filter);
  }

  /** Webhook deliveries, newest first, `limit` (50) at a time, with a count per state. */
  listDeliveries(filter: DeliveryListFilter = {}): FakeAdminList<FakeDelivery> {
    return listDeliveries(this.#webhooks.deliveries, filter);
  }

  /** A copy of everything the fake holds. */
  snapshot(): FakeSnapshot {
    const { state } = this.#services;
    return {
      spvRequests: [...state.spvRequests.values()].map(spvRequestResource),
      spvs: structuredClone([...state.spvs.values()]),
      persons: [...state.persons.values()].map(personView),
      subscriptions: [...state.subscriptions.values()].map(subscriptionView),
    };
  }

  /** Where events go and the scheme they are signed in; secrets are never shown here. */
  webhookTarget(): FakeWebhookTarget {
    return {
      scheme: this.#webhooks.scheme.name,
      endpoints: this.#webhooks.endpoints.map(({ id, url, clientId }) => ({
        id,
        url,
        ...(clientId === undefined ? {} : { clientId }),
      })),
    };
  }

  /**
   * The secret deliveries to the current target are signed with, or `undefined` with no target. The admin
   * API serves it to loopback requests only (`GET /__admin/webhooks/secret`).
   */
  webhookSecret(): string | undefined {
    return this.#webhooks.endpoints[0]?.secret;
  }

  /**
   * Changes where events go (`url`; `null` stops delivering), the secret and the scheme, as
   * {@link FakeWebhooks.setTarget} does. The answer carries `secret` only when one was generated here: the
   * one time it is shown.
   */
  setWebhookTarget(
    options: Parameters<FakeWebhooks['setTarget']>[0],
  ): FakeWebhookTarget & { secret?: string } {
    const { endpoint, secretGenerated } = this.#webhooks.setTarget(options);
    return { ...this.webhookTarget(), ...(secretGenerated && endpoint ? { secret: endpoint.secret } : {}) };
  }

  #open(slug: string, action: string): SubscriptionRecord {
    const subscription = this.#services.state.subscriptions.get(slug);
    if (subscription === undefined) {
      throw new FakeAdminError(`Cannot ${action}: no subscription ${slug}`, 'not_found');
    }
    if (subscription.status === 'completed' || subscription.status === 'cancelled') {
      throw new FakeAdminError(`Cannot ${action} subscription ${slug}: it is already ${subscription.status}`);
    }
    return subscription;
  }
}
