import { createPublicKey, type KeyObject } from 'node:crypto';

/**
 * A public key as a JWK (`{ kty: 'OKP', crv: 'Ed25519', x }`). Not `node:crypto`'s `JsonWebKey`, which newer
 * `@types/node` no longer export: the published declarations must compile against any of them.
 */
export type PublicJwk = { kty?: string; crv?: string; x?: string; kid?: string };

/** A registered key as a `KeyObject`: PEM, JWK object or JSON text, or a `KeyObject`; never a private one. */
export function publicKeyObject(publicKey: string | PublicJwk | KeyObject): KeyObject {
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
