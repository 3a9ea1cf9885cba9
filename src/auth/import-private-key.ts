import { createPrivateKey, createPublicKey, KeyObject } from 'node:crypto';
import { InputValidationError } from '../core/errors/errors.js';
import { SigningKey } from './signing-key.js';

/** An Ed25519 private key as a JSON Web Key (RFC 8037): what `generateKeyPair` tools and KMS exports give. */
export interface Ed25519PrivateJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  /** The private key, base64url. */
  d: string;
  /** The public key, base64url; must belong to `d`. */
  x: string;
  kid?: string;
  alg?: 'EdDSA' | 'Ed25519';
}

/**
 * The private key forms the client accepts. Whatever the form, it must be an Ed25519 private key: the API
 * refuses every other algorithm, so the SDK refuses them too, when the client is built.
 *
 * - a PKCS#8 PEM string (`-----BEGIN PRIVATE KEY-----`), or its bytes (`fs.readFileSync('key.pem')`);
 * - an {@link Ed25519PrivateJwk} object, or its JSON text (handy in an environment variable);
 * - a Web Crypto `CryptoKey` (`Ed25519`, type `private`; may be non-extractable);
 * - a `node:crypto` `KeyObject`.
 */
export type PrivateKeyInput = string | Uint8Array | Ed25519PrivateJwk | CryptoKey | KeyObject;

/**
 * Checks and imports a private key once, so each assertion is only a signature. Refuses RSA, EC, Ed448,
 * shared secrets (HMAC), public keys, certificates, encrypted or OpenSSH PEM and anything unreadable, with
 * an {@link InputValidationError} that says why. Messages never contain key material.
 *
 * @example
 * ```ts
 * const key = importPrivateKey(process.env.PARTNER_EQUITY_PRIVATE_KEY!);
 * ```
 */
export function importPrivateKey(input: unknown): SigningKey {
  if (input instanceof KeyObject) return fromKeyObject(input);
  if (isCryptoKey(input)) return fromCryptoKey(input);
  if (typeof input === 'string') return fromText(input);
  if (input instanceof Uint8Array) return fromBytes(input);
  if (typeof input === 'object' && input !== null && 'kty' in input) return fromJwk(input);
  throw refuse(
    'expected an Ed25519 private key as a PKCS#8 PEM string, a JWK, a CryptoKey or a KeyObject (or pass `signer`)',
  );
}

const EDDSA_ONLY = 'the Partner Equity API only accepts EdDSA (Ed25519) assertions';

function fromKeyObject(key: KeyObject): SigningKey {
  if (key.type === 'secret') throw refuse(`a symmetric (HMAC) secret key was given; ${EDDSA_ONLY}`);
  if (key.type === 'public') throw refuse('a public key was given; pass the private key (keep it secret)');
  const kind = key.asymmetricKeyType;
  if (kind === 'ed25519') return new SigningKey(key);
  throw refuse(`${describeKeyType(kind)} was given; ${EDDSA_ONLY}`);
}

function fromCryptoKey(key: CryptoKey): SigningKey {
  if (key.type === 'secret')
    throw refuse(`a symmetric (${key.algorithm.name}) CryptoKey was given; ${EDDSA_ONLY}`);
  if (key.type === 'public') throw refuse('a public CryptoKey was given; pass the private key');
  if (key.algorithm.name !== 'Ed25519') {
    throw refuse(`a ${key.algorithm.name} CryptoKey was given; ${EDDSA_ONLY}`);
  }
  // Kept as a CryptoKey: converting a non-extractable key to a KeyObject is deprecated, and unnecessary.
  return new SigningKey(key);
}

function fromBytes(bytes: Uint8Array): SigningKey {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (/^\s*(-----BEGIN |\{)/.test(text)) return fromText(text);
  // Binary: the DER encoding of a PKCS#8 PrivateKeyInfo is the only binary form accepted.
  return fromKeyObject(
    parse(() => createPrivateKey({ key: Buffer.from(bytes), format: 'der', type: 'pkcs8' }), 'DER'),
  );
}

function fromText(text: string): SigningKey {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let jwk: unknown;
    try {
      jwk = JSON.parse(trimmed);
    } catch {
      throw refuse('the string starts like a JWK but is not valid JSON');
    }
    if (typeof jwk !== 'object' || jwk === null || !('kty' in jwk)) throw refuse('the JSON is not a JWK');
    return fromJwk(jwk);
  }
  const label = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(trimmed)?.[1];
  if (label === undefined) {
    throw refuse(
      `a string that is not a PEM key was given (a shared secret or HMAC key cannot be used; ${EDDSA_ONLY})`,
    );
  }
  switch (label) {
    case 'PRIVATE KEY':
      return fromKeyObject(parse(() => createPrivateKey({ key: trimmed, format: 'pem' }), 'PKCS#8 PEM'));
    case 'ENCRYPTED PRIVATE KEY':
      throw refuse(
        'the PEM is encrypted; decrypt it first (`openssl pkey -in key.pem -out plain.pem`) or pass a KeyObject made with createPrivateKey({ key, passphrase })',
      );
    case 'RSA PRIVATE KEY':
      throw refuse(`an RSA private key was given; ${EDDSA_ONLY}`);
    case 'EC PRIVATE KEY':
      throw refuse(`an EC private key was given; ${EDDSA_ONLY}`);
    case 'OPENSSH PRIVATE KEY':
      throw refuse('OpenSSH key files are not supported; export the key as PKCS#8 PEM');
    case 'PUBLIC KEY':
    case 'RSA PUBLIC KEY':
    case 'CERTIFICATE':
      throw refuse(`a ${label.toLowerCase()} was given; pass the Ed25519 private key (PKCS#8 PEM)`);
    default:
      throw refuse(`a PEM block labelled "${label}" was given; expected "PRIVATE KEY" (PKCS#8)`);
  }
}

function fromJwk(jwk: object): SigningKey {
  const { kty, crv, d, x, alg } = jwk as Record<string, unknown>;
  if (kty === 'oct') throw refuse(`a symmetric (HMAC) JWK was given; ${EDDSA_ONLY}`);
  if (kty === 'RSA') throw refuse(`an RSA JWK was given; ${EDDSA_ONLY}`);
  if (kty === 'EC') throw refuse(`an EC JWK was given; ${EDDSA_ONLY}`);
  if (kty !== 'OKP') throw refuse('the JWK has an unknown "kty"; expected "OKP" with "crv": "Ed25519"');
  if (crv !== 'Ed25519') {
    throw refuse(`the JWK curve is ${typeof crv === 'string' ? `"${crv}"` : 'missing'}; expected "Ed25519"`);
  }
  if (alg !== undefined && alg !== 'EdDSA' && alg !== 'Ed25519') {
    throw refuse('the JWK "alg" must be "EdDSA" or "Ed25519" when present');
  }
  if (d === undefined) throw refuse('the JWK has no "d": it is a public key; pass the private JWK');
  if (typeof d !== 'string' || typeof x !== 'string')
    throw refuse('the JWK "d" and "x" must be base64url strings');
  const key = parse(() => createPrivateKey({ key: { kty, crv, d, x }, format: 'jwk' }), 'JWK');
  // Node does not check that "x" belongs to "d"; a mismatch would sign with a key nobody registered.
  if (createPublicKey(key).export({ format: 'jwk' }).x !== x) {
    throw refuse('the JWK "x" is not the public key of its "d"');
  }
  return fromKeyObject(key);
}

function parse(create: () => KeyObject, form: string): KeyObject {
  try {
    return create();
  } catch (cause) {
    // Node's parser errors name the failing decoder, never the input; kept as `cause`, out of the message.
    throw refuse(`not a readable ${form} private key`, cause);
  }
}

function describeKeyType(kind: string | undefined): string {
  switch (kind) {
    case 'rsa':
    case 'rsa-pss':
      return 'an RSA private key';
    case 'ec':
      return 'an EC (ECDSA) private key';
    case 'ed448':
      return 'an Ed448 private key';
    case 'x25519':
    case 'x448':
      return `an ${kind.toUpperCase()} key-agreement key`;
    default:
      return `a ${kind ?? 'non-asymmetric'} key`;
  }
}

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof CryptoKey !== 'undefined' && value instanceof CryptoKey;
}

function refuse(why: string, cause?: unknown): InputValidationError {
  const error = new InputValidationError('client options', [{ path: 'privateKey', message: why }]);
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  return error;
}
