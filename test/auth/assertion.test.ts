import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AssertionIdentity, createAssertion } from '../../src/auth/assertion.js';
import { importPrivateKey } from '../../src/auth/import-private-key.js';
import { jwsSigningInput } from '../../src/auth/signer.js';
import { PartnerEquityError } from '../../src/core/errors/errors.js';

const identity: AssertionIdentity = {
  issuer: 'https://api.partner.example',
  clientId: 'client_123',
  audience: 'https://sandbox.example-partner-equity.com/',
};
const at = Date.UTC(2030, 0, 1, 12, 0, 0, 999);

function decode(part: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('createAssertion', () => {
  it('signs header and claims so that node:crypto verifies them; aud is the configured string, unchanged', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const jwt = await createAssertion(importPrivateKey(privateKey), identity, at);
    const [header, payload, signature] = jwt.split('.');
    expect(
      verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature ?? '', 'base64url')),
    ).toBe(true);
    expect(decode(header)).toEqual({ alg: 'EdDSA', typ: 'JWT' });
    const claims = decode(payload);
    expect(claims['aud']).toBe('https://sandbox.example-partner-equity.com/'); // trailing slash kept as given
    expect(claims['iat']).toBe(Math.floor(at / 1000)); // floored, never rounded up into the future
    expect(claims['exp']).toBe(Math.floor(at / 1000) + 60);
  });

  it('gives a signer exactly the header and claims it signs, and returns its JWT', async () => {
    const calls: string[] = [];
    const jwt = await createAssertion(
      async (claims, header) => {
        const input = jwsSigningInput(header, claims);
        calls.push(input);
        return `${input}.c2lnbmF0dXJl`;
      },
      { ...identity, keyId: 'kms-key-1', algorithm: 'Ed25519' },
      at,
    );
    expect(jwt).toBe(`${calls[0]}.c2lnbmF0dXJl`);
    expect(decode(jwt.split('.')[0])).toEqual({ alg: 'Ed25519', typ: 'JWT', kid: 'kms-key-1' });
  });

  it('reports a failing signer with code signer_error, keeping its error as cause', async () => {
    const kmsDown = new Error('KMS unavailable');
    const error = await createAssertion(() => Promise.reject(kmsDown), identity, at).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerEquityError);
    expect(error).toMatchObject({ code: 'signer_error', cause: kmsDown });
  });

  it('refuses a signer result signed under another alg, or not a compact JWS', async () => {
    const hs256 = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.e30.c2ln`;
    await expect(createAssertion(async () => hs256, identity, at)).rejects.toThrow(/alg "EdDSA"/);
    await expect(createAssertion(async () => 'a.b', identity, at)).rejects.toThrow(/compact JWS/);
    await expect(createAssertion(async () => 42 as unknown as string, identity, at)).rejects.toThrow(
      /compact JWS/,
    );
  });
});
