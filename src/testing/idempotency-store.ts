/** A stored first response, replayed byte for byte. */
export interface StoredResponse {
  status: number;
  body: string;
  contentType: string;
}

interface Entry {
  fingerprint: string;
  response: StoredResponse;
  storedAt: number;
}

/** What a lookup found. */
export type IdempotencyLookup =
  | { kind: 'miss' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict' };

/**
 * Idempotency keys scoped by (client, method, path, key), kept for `retentionMs` of the fake's clock.
 * Only successful (2xx) responses are stored: a request that failed validation or hit a missing resource
 * changed nothing, so the partner may fix it and send it again under the same key.
 */
export class IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #retentionMs: number;
  readonly #now: () => number;

  constructor(retentionMs: number, now: () => number) {
    this.#retentionMs = retentionMs;
    this.#now = now;
  }

  /** The scope string of one key. */
  static scope(clientId: string, method: string, path: string, key: string): string {
    return JSON.stringify([clientId, method, path, key]);
  }

  lookup(scope: string, fingerprint: string): IdempotencyLookup {
    const entry = this.#entries.get(scope);
    if (entry === undefined) return { kind: 'miss' };
    if (this.#now() - entry.storedAt >= this.#retentionMs) {
      this.#entries.delete(scope);
      return { kind: 'miss' };
    }
    return entry.fingerprint === fingerprint
      ? { kind: 'replay', response: entry.response }
      : { kind: 'conflict' };
  }

  save(scope: string, fingerprint: string, response: StoredResponse): void {
    this.#entries.set(scope, { fingerprint, response, storedAt: this.#now() });
  }

  /** Keys currently held (expired ones are dropped lazily). */
  get size(): number {
    return this.#entries.size;
  }
}
