import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  type FakeAdminList,
  listSpvRequests,
  listSubscriptions,
  type SpvRequestListFilter,
  type SubscriptionListFilter,
} from './admin-lists.js';
import { randomId } from './ids.js';
import type { FakeServices } from './services.js';
import type { PersonRecord, SpvRecord, SubscriptionRecord } from './state/records.js';
import { spvRequestResource, subscriptionResult } from './state/resources.js';
import {
  approveSpvRequest,
  cancelSpvRequest,
  FakeAdminError,
  rejectSpvRequest,
} from './state/spv-request-lifecycle.js';
import { emitSubscriptionCompleted } from './state/subscription-events.js';
import type { SpvRequest } from './wire/spv-requests.js';
import type { SubscriptionResult } from './wire/subscriptions.js';

/**
 * A public key as a JWK (`{ kty: 'OKP', crv: 'Ed25519', x }`). Not `node:crypto`'s `JsonWebKey`, which newer
 * `@types/node` no longer export: the published declarations must compile against any of them.
 */
export type PublicJwk = { kty?: string; crv?: string; x?: string; kid?: string };

/** A person as the admin view shows it. */
export type FakePerson = Readonly<PersonRecord>;

/** Everything the fake holds, as copies (mutating them changes nothing). */
export interface FakeSnapshot {
  spvRequests: SpvRequest[];
  spvs: SpvRecord[];
  persons: PersonRecord[];
  subscriptions: SubscriptionRecord[];
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

  /** @internal */
  constructor(services: FakeServices) {
    this.#services = services;
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
  listSubscriptions(filter: SubscriptionListFilter = {}): FakeAdminList<SubscriptionRecord> {
    return listSubscriptions(this.#services.state, filter);
  }

  /** A copy of everything the fake holds. */
  snapshot(): FakeSnapshot {
    const { state } = this.#services;
    return structuredClone({
      spvRequests: [...state.spvRequests.values()].map(spvRequestResource),
      spvs: [...state.spvs.values()],
      persons: [...state.persons.values()],
      subscriptions: [...state.subscriptions.values()],
    });
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

/** A registered key as a `KeyObject`: PEM, JWK object or JSON text, or a `KeyObject`; never a private one. */
function publicKeyObject(publicKey: string | PublicJwk | KeyObject): KeyObject {
  let key: KeyObject;
  try {
    if (typeof publicKey === 'string') {
      key = publicKey.trimStart().startsWith('{')
        ? createPublicKey({ key: JSON.parse(publicKey) as PublicJwk, format: 'jwk' })
        : createPublicKey(publicKey);
    } else if ('asymmetricKeyType' in publicKey && typeof publicKey.export === 'function') {
      key = publicKey as KeyObject;
    } else {
      key = createPublicKey({ key: publicKey as PublicJwk, format: 'jwk' });
    }
  } catch (error) {
    throw new TypeError('publicKey is not a PEM key, an Ed25519 JWK or a KeyObject', { cause: error });
  }
  return key.type === 'private' ? createPublicKey(key) : key;
}
