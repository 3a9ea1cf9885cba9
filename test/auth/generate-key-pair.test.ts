import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/auth/generate-key-pair.js';
import { importPrivateKey } from '../../src/auth/import-private-key.js';

describe('generateKeyPair', () => {
  it('returns a PKCS#8 private key and its public key as JWK and SPKI, ready to register', async () => {
    const { privateKeyPem, publicKeyJwk, publicKeyPem } = await generateKeyPair();
    expect(privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    expect(publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(Object.keys(publicKeyJwk).sort()).toEqual(['crv', 'kty', 'x']);
    expect(publicKeyJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    expect(Buffer.from(publicKeyJwk.x, 'base64url')).toHaveLength(32);

    // What the SDK signs with the private key verifies, with node:crypto, under both public forms.
    const jws = await importPrivateKey(privateKeyPem).signCompact(
      { alg: 'EdDSA' },
      new TextEncoder().encode('hi'),
    );
    const [header, payload, signature] = jws.split('.') as [string, string, string];
    for (const key of [
      createPublicKey(publicKeyPem),
      createPublicKey({ key: publicKeyJwk, format: 'jwk' }),
    ]) {
      expect(
        verify(null, Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')),
      ).toBe(true);
    }
  });

  it('generates a different key each time', async () => {
    const [a, b] = await Promise.all([generateKeyPair(), generateKeyPair()]);
    expect(a.publicKeyJwk.x).not.toBe(b.publicKeyJwk.x);
    expect(a.privateKeyPem).not.toBe(b.privateKeyPem);
  });
});
