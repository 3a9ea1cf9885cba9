import type { KeyObject } from 'node:crypto';

/** A partner client the fake knows: what the service would hold after onboarding. */
export interface RegisteredClient {
  clientId: string;
  /** Expected `iss` of the client's assertions (the partner's own API base URL). */
  issuer: string;
  /** Ed25519 public key that verifies the client's assertions. */
  publicKey: KeyObject;
  /** `false` makes every partner endpoint answer 403 (`not_provisioned`). */
  provisioned: boolean;
  applicationName: string;
  tenantSlug: string;
}

/** Registered clients by `client_id`. */
export class ClientRegistry {
  readonly #clients = new Map<string, RegisteredClient>();

  register(client: RegisteredClient): void {
    if (this.#clients.has(client.clientId))
      throw new Error(`Client ${client.clientId} is already registered`);
    if (client.publicKey.asymmetricKeyType !== 'ed25519') {
      throw new TypeError('Client public keys must be Ed25519 (the API accepts EdDSA assertions only)');
    }
    this.#clients.set(client.clientId, client);
  }

  get(clientId: string): RegisteredClient | undefined {
    return this.#clients.get(clientId);
  }

  /** Throws when the client is unknown, so admin typos surface in the test that made them. */
  require(clientId: string): RegisteredClient {
    const client = this.#clients.get(clientId);
    if (client === undefined) throw new Error(`Unknown client ${clientId}`);
    return client;
  }

  get size(): number {
    return this.#clients.size;
  }
}
