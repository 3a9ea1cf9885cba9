import { createPrivateKey, KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importPrivateKey } from '../../src/auth/import-private-key.js';
import { RFC8037_A1_PRIVATE_JWK, RFC8037_A4 } from './rfc8037.js';

const payload = new TextEncoder().encode(RFC8037_A4.payload);
const expected = `${RFC8037_A4.protectedHeader}.${RFC8037_A4.encodedPayload}.${RFC8037_A4.signature}`;

describe('SigningKey.signCompact (the SDK signing step)', () => {
  it('produces the RFC 8037 A.4 JWS from the A.1 key given as a JWK', async () => {
    const key = importPrivateKey({ ...RFC8037_A1_PRIVATE_JWK });
    const jws = await key.signCompact({ alg: 'EdDSA' }, payload);
    expect(jws.split('.')[2]).toBe(RFC8037_A4.signature);
    expect(jws).toBe(expected);
  });

  it('produces the same signature whatever form the A.1 key arrives in', async () => {
    const keyObject = createPrivateKey({ key: { ...RFC8037_A1_PRIVATE_JWK }, format: 'jwk' });
    const pem = keyObject.export({ format: 'pem', type: 'pkcs8' }) as string;
    const der = keyObject.export({ format: 'der', type: 'pkcs8' });
    const cryptoKey = await crypto.subtle.importKey('jwk', { ...RFC8037_A1_PRIVATE_JWK }, 'Ed25519', false, [
      'sign',
    ]);
    const forms: unknown[] = [
      pem,
      Buffer.from(pem),
      der,
      JSON.stringify(RFC8037_A1_PRIVATE_JWK),
      keyObject,
      cryptoKey,
    ];
    for (const form of forms) {
      const jws = await importPrivateKey(form).signCompact({ alg: 'EdDSA' }, payload);
      expect(jws).toBe(expected);
    }
    expect(keyObject).toBeInstanceOf(KeyObject);
  });
});
