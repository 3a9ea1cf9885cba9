import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakePartnerCredentials, FakePartnerEquity } from '../../src/testing/index.js';
import { TokenInfo, TokenResponse } from '../../src/testing/wire/index.js';
import { http, JWT_GRANT, signAssertion } from './helpers.js';

let fake: FakePartnerEquity;
let partner: FakePartnerCredentials;
let call: ReturnType<typeof http>;

async function setup(options: ConstructorParameters<typeof FakePartnerEquity>[0] = {}) {
  fake = new FakePartnerEquity(options);
  await fake.listen();
  partner = await fake.createPartner();
  call = http(partner.baseUrl);
}

afterEach(() => fake.close());

const exchange = (assertion: string) =>
  call('POST', '/v1/oauth2/tokens', { form: { grant_type: JWT_GRANT, assertion } });

describe('POST /v1/oauth2/tokens — JWT-bearer grant', () => {
  it('201: a real EdDSA assertion gets the spec token response, not cacheable, dated by the fake clock', async () => {
    await setup();
    const reply = await exchange(signAssertion(partner, fake.clock.now()));
    expect(reply.status).toBe(201);
    const body = TokenResponse.parse(reply.body);
    expect(body).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600, refreshExpiresIn: 2_592_000 });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(Date.parse(reply.headers.get('date')!)).toBe(Math.floor(fake.clock.now() / 1000) * 1000);
    expect(fake.tokenRequests).toEqual([
      expect.objectContaining({ grantType: JWT_GRANT, status: 201, clientId: partner.clientId }),
    ]);
  });

  it('accepts the fully specified alg "Ed25519" and an iat within the skew', async () => {
    await setup();
    const now = fake.clock.now();
    expect((await exchange(signAssertion(partner, now, { header: { alg: 'Ed25519' } }))).status).toBe(201);
    expect((await exchange(signAssertion(partner, now + 4_000))).status).toBe(201);
    expect((await exchange(signAssertion(partner, now - 4_000))).status).toBe(201);
  });

  const otherKey = generateKeyPairSync('ed25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
  const cases: Array<[string, string, (now: number) => Parameters<typeof signAssertion>[2]]> = [
    ['HMAC alg', 'unsupported_algorithm', () => ({ header: { alg: 'HS256' } })],
    ['RSA alg', 'unsupported_algorithm', () => ({ header: { alg: 'RS256' } })],
    ['signature by another key', 'invalid_signature', () => ({ key: otherKey })],
    ['sub != client_id', 'client_id_mismatch', () => ({ claims: { client_id: 'someone-else' } })],
    ['unknown client', 'unknown_client', () => ({ claims: { sub: 'ghost', client_id: 'ghost' } })],
    [
      'aud of another environment',
      'invalid_audience',
      () => ({ claims: { aud: 'https://api.production.example' } }),
    ],
    ['aud with a trailing slash', 'invalid_audience', () => ({ claims: { aud: `${partner.baseUrl}/` } })],
    ['wrong iss', 'invalid_issuer', () => ({ claims: { iss: 'https://evil.example' } })],
    [
      'iat 10 s in the future',
      'assertion_not_yet_valid',
      (now) => ({ claims: { iat: Math.floor(now / 1000) + 10 } }),
    ],
    [
      'iat 10 s in the past',
      'assertion_expired',
      (now) => ({ claims: { iat: Math.floor(now / 1000) - 10 } }),
    ],
    ['exp in the past', 'assertion_expired', (now) => ({ claims: { exp: Math.floor(now / 1000) - 10 } })],
    [
      'exp - iat of an hour',
      'assertion_lifetime_too_long',
      (now) => ({ claims: { exp: Math.floor(now / 1000) + 3600 } }),
    ],
    ['no iat', 'invalid_assertion', () => ({ claims: { iat: undefined } })],
  ];
  it.each(cases)('401 for %s (code %s)', async (_name, code, override) => {
    await setup();
    const reply = await exchange(signAssertion(partner, fake.clock.now(), override(fake.clock.now())));
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({
      code,
      detail: expect.any(String),
      errorId: expect.stringMatching(/^err_/),
    });
    expect(fake.tokenRequests.at(-1)).toMatchObject({ status: 401, code });
  });

  it('401 for a garbled JWT and for a replayed assertion (same jti)', async () => {
    await setup();
    expect((await exchange('not.a.jwt')).body.code).toBe('invalid_assertion');
    const assertion = signAssertion(partner, fake.clock.now());
    expect((await exchange(assertion)).status).toBe(201);
    const replay = await exchange(assertion);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('assertion_replayed');
  });

  it('a server clock 30 s ahead (clockOffsetMs) rejects a client-clock assertion and shows its time in Date', async () => {
    await setup({ clockOffsetMs: 30_000 });
    const reply = await exchange(signAssertion(partner, fake.clock.now()));
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe('assertion_expired');
    const serverNow = Date.parse(reply.headers.get('date')!);
    expect(serverNow - fake.clock.now()).toBeGreaterThan(29_000);
    expect((await exchange(signAssertion(partner, serverNow))).status).toBe(201);
  });

  it('422 for a missing or unsupported grant_type, a missing assertion, or a non-form body', async () => {
    await setup();
    const missing = await call('POST', '/v1/oauth2/tokens', { form: { assertion: 'x' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'grant_type'], msg: 'Field required', type: 'missing' },
    ]);
    const unsupported = await call('POST', '/v1/oauth2/tokens', { form: { grant_type: 'password' } });
    expect(unsupported.body.detail[0]).toMatchObject({ loc: ['body', 'grant_type'], type: 'literal_error' });
    const noAssertion = await call('POST', '/v1/oauth2/tokens', { form: { grant_type: JWT_GRANT } });
    expect(noAssertion.status).toBe(422);
    expect(noAssertion.body.detail[0]).toMatchObject({ loc: ['body', 'assertion'], type: 'missing' });
    const json = await call('POST', '/v1/oauth2/tokens', { json: { grant_type: JWT_GRANT } });
    expect(json.status).toBe(422);
    expect(json.body.detail[0].type).toBe('content_type');
  });
});

describe('admin.registerClient', () => {
  it('registers a key held elsewhere (PEM or JWK public key) and verifies assertions signed by it', async () => {
    await setup();
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    fake.admin.registerClient({
      clientId: 'kms-client',
      issuer: 'https://kms.example',
      publicKey: publicKey.export({ format: 'jwk' }),
    });
    fake.admin.registerClient({
      clientId: 'pem-client',
      issuer: 'https://pem.example',
      publicKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    });
    for (const [clientId, issuer] of [
      ['kms-client', 'https://kms.example'],
      ['pem-client', 'https://pem.example'],
    ] as const) {
      const assertion = signAssertion(
        { baseUrl: partner.baseUrl, clientId, issuer, privateKey: pem },
        fake.clock.now(),
      );
      expect((await exchange(assertion)).status).toBe(201);
    }
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    expect(() => fake.admin.registerClient({ clientId: 'rsa', issuer: 'x', publicKey: rsa })).toThrow(
      TypeError,
    );
    expect(() => fake.admin.registerClient({ clientId: 'kms-client', issuer: 'x', publicKey })).toThrow(
      /already/,
    );
  });
});

describe('GET /v1/oauth2/info', () => {
  it('200 describes the token; 401 without, with a bad, or with an expired token', async () => {
    await setup();
    const { accessToken } = (await exchange(signAssertion(partner, fake.clock.now()))).body;
    const info = await call('GET', '/v1/oauth2/info', { token: accessToken });
    expect(info.status).toBe(200);
    expect(TokenInfo.parse(info.body)).toMatchObject({
      clientId: partner.clientId,
      clientType: 'partner',
      applicationName: 'Partner app 1',
    });
    const none = await call('GET', '/v1/oauth2/info');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await call('GET', '/v1/oauth2/info', { token: 'pe_at_bogus' })).body.code).toBe('invalid_token');
    await fake.clock.advance(3_599_000);
    expect((await call('GET', '/v1/oauth2/info', { token: accessToken })).status).toBe(200);
    await fake.clock.advance(1_000);
    const expired = await call('GET', '/v1/oauth2/info', { token: accessToken });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('token_expired');
  });

  it('the credentials object hides the private key from JSON.stringify and util.inspect', async () => {
    await setup();
    const { inspect } = await import('node:util');
    expect(JSON.stringify(partner)).not.toContain('PRIVATE KEY');
    expect(inspect(partner)).not.toContain('PRIVATE KEY');
    expect({ ...partner }.privateKey).toContain('BEGIN PRIVATE KEY');
  });
});
