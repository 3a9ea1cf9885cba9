import { KeyObject, sign } from 'node:crypto';
import { describeRedacted } from './redacted.js';
import type { AssertionAlgorithm } from './signer.js';

/** A protected JWS header the SDK signs: an EdDSA algorithm name and anything else (`typ`, `kid`). */
export interface SignableHeader {
  alg: AssertionAlgorithm;
  [parameter: string]: unknown;
}

/**
 * An Ed25519 private key, imported and checked once, that signs compact JWS. Built by
 * {@link importPrivateKey}; the key lives in a private field and never shows in `util.inspect`,
 * `JSON.stringify` or error messages.
 */
export class SigningKey {
  readonly #key: CryptoKey | KeyObject;

  /** @internal Use {@link importPrivateKey}, which refuses anything but an Ed25519 private key. */
  constructor(key: CryptoKey | KeyObject) {
    this.#key = key;
  }

  /**
   * The SDK's one signing step: RFC 7515 compact serialisation of `payload` under `header`, signed with
   * Ed25519 (deterministic, so RFC 8037 A.4 is a known answer for it).
   */
  async signCompact(header: SignableHeader, payload: Uint8Array): Promise<string> {
    // RFC 7515 section 7.1: the signing input is both parts, base64url, joined by a dot. Signed with
    // node:crypto or Web Crypto directly: jose would cost the first call ~10 ms of module loading.
    const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(payload).toString('base64url')}`;
    const data = Buffer.from(input);
    const key = this.#key;
    const signature =
      key instanceof KeyObject
        ? sign(null, data, key)
        : Buffer.from(await crypto.subtle.sign('Ed25519', key, data));
    return `${input}.${signature.toString('base64url')}`;
  }

  /** Shows only that this is a key, never the key. */
  toJSON(): string {
    return '[SigningKey: Ed25519, redacted]';
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return describeRedacted('SigningKey', { algorithm: 'Ed25519' });
  }
}
