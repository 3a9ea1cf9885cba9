import { createSecretKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { importPrivateKey } from '../../src/auth/import-private-key.js';
import { SigningKey } from '../../src/auth/signing-key.js';
import { InputValidationError } from '../../src/core/errors/errors.js';
import { RFC8037_A1_PRIVATE_JWK } from './rfc8037.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed448 = generateKeyPairSync('ed448');
const ed25519 = generateKeyPairSync('ed25519');
const hmacSecret = randomBytes(32).toString('base64url');

/** Imports `input`, expecting a refusal; returns the error after checking it names the field and leaks nothing. */
function refusal(input: unknown, secrets: string[] = []): InputValidationError {
  let caught: unknown;
  try {
    importPrivateKey(input);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(InputValidationError);
  const error = caught as InputValidationError;
  expect(error.issues).toHaveLength(1);
  expect(error.issues[0]?.path).toBe('privateKey');
  for (const secret of secrets) {
    expect(error.message).not.toContain(secret);
    expect(inspect(error)).not.toContain(secret);
  }
  return error;
}

// The distinctive middle of a PEM body: enough to prove no key material was echoed.
const pemBody = (pem: string) => pem.split('\n')[2] ?? pem;
const pkcs8 = (key: { export(o: object): string | Buffer }) =>
  key.export({ format: 'pem', type: 'pkcs8' }) as string;

describe('importPrivateKey: refused when the client is built, saying why', () => {
  it('refuses RSA keys in every form', async () => {
    const pem = pkcs8(rsa.privateKey);
    const pkcs1 = rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string;
    const jwk = rsa.privateKey.export({ format: 'jwk' });
    const cryptoKey = await crypto.subtle.generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      false,
      ['sign', 'verify'],
    );
    for (const input of [pem, pkcs1, jwk, rsa.privateKey, cryptoKey.privateKey]) {
      expect(refusal(input, [pemBody(pem), pemBody(pkcs1), String(jwk.d)]).message).toMatch(
        /RSA.*only accepts EdDSA/,
      );
    }
  });

  it('refuses EC keys in every form', async () => {
    const pem = pkcs8(ec.privateKey);
    const sec1 = ec.privateKey.export({ format: 'pem', type: 'sec1' }) as string;
    const jwk = ec.privateKey.export({ format: 'jwk' });
    const cryptoKey = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
    ]);
    for (const input of [pem, sec1, jwk, ec.privateKey, cryptoKey.privateKey]) {
      expect(refusal(input, [pemBody(pem), String(jwk.d)]).message).toMatch(/EC.*only accepts EdDSA/);
    }
  });

  it('refuses HMAC / shared secrets in every form', async () => {
    const hmacKey = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const inputs = [
      hmacSecret,
      { kty: 'oct', k: hmacSecret },
      createSecretKey(Buffer.from(hmacSecret)),
      hmacKey,
      Buffer.from(hmacSecret),
    ];
    for (const input of inputs) {
      expect(refusal(input, [hmacSecret]).message).toMatch(/(HMAC|shared secret).*EdDSA|not a readable DER/);
    }
    expect(refusal(hmacSecret).message).toMatch(/shared secret or HMAC key cannot be used/);
    expect(refusal(hmacKey).message).toMatch(/symmetric \(HMAC\) CryptoKey/);
  });

  it('refuses public keys, certificates-to-be and the private key of other curves', () => {
    const spki = ed25519.publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const publicJwk = ed25519.publicKey.export({ format: 'jwk' });
    expect(refusal(spki).message).toMatch(/public key was given/);
    expect(refusal(publicJwk).message).toMatch(/no "d": it is a public key/);
    expect(refusal(ed25519.publicKey).message).toMatch(/public key was given/);
    expect(refusal(pkcs8(ed448.privateKey)).message).toMatch(/Ed448.*only accepts EdDSA \(Ed25519\)/);
    expect(refusal(ed448.privateKey.export({ format: 'jwk' })).message).toMatch(/curve is "Ed448"/);
  });

  it('refuses encrypted, OpenSSH and unreadable PEM, and things that are not keys', () => {
    const encrypted = ed25519.privateKey.export({
      format: 'pem',
      type: 'pkcs8',
      cipher: 'aes-256-cbc',
      passphrase: 'correct horse',
    }) as string;
    expect(refusal(encrypted).message).toMatch(/encrypted; decrypt it first/);
    expect(
      refusal('-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----').message,
    ).toMatch(/OpenSSH/);
    const mangled = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINOTAKEY\n-----END PRIVATE KEY-----';
    expect(refusal(mangled, ['MC4CAQAwBQYDK2VwBCIEINOTAKEY']).message).toMatch(/not a readable PKCS#8 PEM/);
    expect(refusal('{"kty":').message).toMatch(/not valid JSON/);
    for (const junk of [undefined, null, 42, {}, ['pem'], () => 'pem']) {
      expect(refusal(junk).message).toMatch(/expected an Ed25519 private key/);
    }
  });

  it('refuses a JWK whose public half does not belong to its private half', () => {
    const other = ed25519.publicKey.export({ format: 'jwk' }).x as string;
    const error = refusal({ ...RFC8037_A1_PRIVATE_JWK, x: other }, [RFC8037_A1_PRIVATE_JWK.d]);
    expect(error.message).toMatch(/"x" is not the public key of its "d"/);
  });
});

describe('importPrivateKey: accepted forms', () => {
  it('returns a SigningKey that shows no key material when inspected or serialised', () => {
    const pem = pkcs8(ed25519.privateKey);
    const key = importPrivateKey(pem);
    expect(key).toBeInstanceOf(SigningKey);
    const d = String(ed25519.privateKey.export({ format: 'jwk' }).d);
    for (const shown of [
      inspect(key, { depth: 10, showHidden: true }),
      JSON.stringify({ key }),
      String(key),
    ]) {
      expect(shown).not.toContain(pemBody(pem));
      expect(shown).not.toContain(d);
    }
    expect(inspect(key)).toBe("SigningKey { algorithm: 'Ed25519' }");
  });
});
