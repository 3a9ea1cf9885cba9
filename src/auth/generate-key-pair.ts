import { generateKeyPair as generateKeyPairCallback } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPairCallback);

/**
 * An Ed25519 public JWK, ready to register with the service. Declared here rather than extending
 * `node:crypto`'s `JsonWebKey`, which newer `@types/node` no longer export (the published types must
 * compile against any of them). A type alias, so it is assignable to `node:crypto`'s JWK input.
 */
export type Ed25519PublicJwk = {
  kty: 'OKP';
  crv: 'Ed25519';
  /** The public key, base64url. */
  x: string;
};

/** A new Ed25519 key pair in the forms the client and the service want. */
export interface GeneratedKeyPair {
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`): pass it as `privateKey`, store it as a secret. */
  privateKeyPem: string;
  /** The public key as a JWK (`{ kty: 'OKP', crv: 'Ed25519', x }`), for registration. */
  publicKeyJwk: Ed25519PublicJwk;
  /** The public key as SPKI PEM (`-----BEGIN PUBLIC KEY-----`), for registration. */
  publicKeyPem: string;
}

/**
 * Generates an Ed25519 key pair for client assertions. Keep `privateKeyPem` in your secret store and
 * register `publicKeyJwk` (or `publicKeyPem`) with Partner Equity for your `client_id`.
 *
 * @example
 * ```ts
 * import { generateKeyPair } from '@partner-equity/sdk';
 *
 * const { privateKeyPem, publicKeyJwk } = await generateKeyPair();
 * await secrets.put('partner-equity-private-key', privateKeyPem);
 * console.log(JSON.stringify(publicKeyJwk)); // send this to Partner Equity
 * ```
 */
export async function generateKeyPair(): Promise<GeneratedKeyPair> {
  const { privateKey, publicKey } = await generate('ed25519');
  const { kty, crv, x } = publicKey.export({ format: 'jwk' });
  if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string') {
    throw new Error('node:crypto generated an unexpected key type'); // unreachable on a conforming runtime
  }
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
    publicKeyJwk: { kty, crv, x },
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
  };
}
