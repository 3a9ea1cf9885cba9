import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { jwsSigningInput, type Signer } from '../../src/auth/signer.js';
import { PartnerEquity } from '../../src/client.js';
import {
  AuthenticationError,
  InputValidationError,
  PartnerEquityError,
} from '../../src/core/errors/errors.js';
import { CLIENT_ID, ISSUER, recordingLogger } from './harness.js';
import { ManualClock } from './manual-clock.js';
import { TokenServer } from './token-server.js';

let server: TokenServer | undefined;
let client: PartnerEquity | undefined;
afterEach(async () => {
  expect(server?.unexpected ?? []).toEqual([]);
  await client?.close();
  await server?.close();
  server = undefined;
  client = undefined;
});

async function setup(credentials: (privateKey: KeyObject) => { privateKey?: unknown; signer?: Signer }) {
  const clock = new ManualClock();
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  server = await TokenServer.start({ clock, clientId: CLIENT_ID, issuer: ISSUER, publicKey });
  const logger = recordingLogger();
  client = new PartnerEquity({
    baseUrl: server.baseUrl,
    clientId: CLIENT_ID,
    issuer: ISSUER,
    clock,
    logger,
    logLevel: 'debug',
    ...(credentials(privateKey) as { privateKey?: string }),
  });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  return { server, client, clock, logger, pem };
}

const baseOptions = { baseUrl: 'https://sandbox.example.test', clientId: CLIENT_ID, issuer: ISSUER };

describe('PartnerEquity with credentials', () => {
  it('obtains a token with the private key given as PEM and calls a bearer route', async () => {
    const { server, client } = await setup((key) => ({
      privateKey: key.export({ format: 'pem', type: 'pkcs8' }),
    }));
    const info = await client.oauth.info();
    expect(info).toMatchObject({ clientId: CLIENT_ID, clientType: 'partner', applicationName: 'Tests' });
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.tokenRequests[0]?.outcome).toBe(201);
    expect(server.apiCalls).toEqual([{ token: server.secrets[1], status: 200 }]);
  });

  it('signs through a KMS-style signer that never hands the key to the SDK', async () => {
    const seen: unknown[] = [];
    const { server, client } = await setup((key) => ({
      signer: async (claims, header) => {
        seen.push({ claims, header });
        const input = jwsSigningInput(header, claims);
        return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`; // the "KMS"
      },
    }));
    await client.oauth.info();
    expect(server.tokenRequests[0]?.outcome).toBe(201);
    expect(seen).toEqual([
      { claims: server.tokenRequests[0]?.claims, header: server.tokenRequests[0]?.header },
    ]);
  });

  it('reports a signer that returns something other than a compact JWS, before sending anything', async () => {
    const { server, client } = await setup(() => ({ signer: async () => 'not a jwt' }));
    const error = await client.oauth.info().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerEquityError);
    expect(error).toMatchObject({ code: 'signer_error' });
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('shares one token manager with clients derived by withOptions()', async () => {
    const { server, client } = await setup((key) => ({ privateKey: key }));
    const patient = client.withOptions({ maxRetries: 5 });
    await Promise.all([client.oauth.info(), patient.oauth.info(), patient.oauth.info()]);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('turns a second consecutive 401 into an AuthenticationError through the real pipeline', async () => {
    const { server, client } = await setup((key) => ({ privateKey: key }));
    await client.oauth.info();
    server.apiFaults.push(401, 401);
    await expect(client.oauth.info()).rejects.toBeInstanceOf(AuthenticationError);
    expect(server.apiCalls.map((c) => c.status)).toEqual([200, 401, 401]);
  });
});

describe('keys refused when the client is built', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const hmac = randomBytes(32).toString('hex');

  it.each([
    ['RSA PEM', rsa.export({ format: 'pem', type: 'pkcs8' }) as string, /RSA private key was given/],
    ['RSA JWK', rsa.export({ format: 'jwk' }), /RSA JWK was given/],
    ['EC PEM', ec.export({ format: 'pem', type: 'pkcs8' }) as string, /EC \(ECDSA\) private key was given/],
    ['HMAC secret', hmac, /shared secret or HMAC key cannot be used/],
    ['HMAC JWK', { kty: 'oct', k: Buffer.from(hmac).toString('base64url') }, /symmetric \(HMAC\) JWK/],
  ])('%s', (_name, privateKey, why) => {
    let caught: unknown;
    try {
      new PartnerEquity({ ...baseOptions, privateKey: privateKey as string });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputValidationError);
    const error = caught as InputValidationError;
    expect(error.issues.map((issue) => issue.path)).toEqual(['privateKey']);
    expect(error.message).toMatch(why);
    expect(error.message).toMatch(/only accepts EdDSA \(Ed25519\)/);
    const material =
      typeof privateKey === 'string' ? (privateKey.split('\n')[2] ?? privateKey) : JSON.stringify(privateKey);
    expect(inspect(error)).not.toContain(material);
  });
});

describe('no secret leaks', () => {
  it('util.inspect, JSON.stringify, logs and errors of the client and its token manager show no key, assertion or token', async () => {
    const { server, client, pem, logger, clock } = await setup((key) => ({
      privateKey: key.export({ format: 'pem', type: 'pkcs8' }),
    }));
    await client.oauth.info();
    server.apiFaults.push(401); // a renewal after a 401: refresh token presented, new pair issued
    await client.oauth.info();
    server.injectTokenFault({ status: 401 }, 'jwt');
    server.injectTokenFault({ status: 401 }, 'refresh');
    clock.advance(3600_000);
    const error = await client.oauth.info().catch((e: unknown) => e); // a refused assertion, surfaced
    expect(error).toBeInstanceOf(AuthenticationError);

    const pemBody = pem.split('\n').slice(1, -2).join('');
    const secrets = [...server.secrets, pemBody];
    expect(server.secrets.length).toBeGreaterThanOrEqual(6); // 3 assertions and 2 token pairs at least
    // The token manager itself, reached the way a debugging partner might: through the pipeline's config.
    const tokenManager = client._requester.config.authenticator;
    expect(inspect(tokenManager)).toMatch(
      /^TokenManager \{ clientId: 'client_auth_tests', .*hasAccessToken: true, hasRefreshToken: false, /,
    );
    const all = { depth: Number.POSITIVE_INFINITY, showHidden: true };
    const shown = [
      inspect(client, all),
      JSON.stringify(client),
      inspect(client._requester, all),
      JSON.stringify(client._requester),
      inspect(tokenManager, all),
      JSON.stringify(tokenManager),
      String(client),
      inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      JSON.stringify(error),
      logger.lines.join('\n'),
    ];
    expect(logger.lines.length).toBeGreaterThan(0);
    for (const text of shown) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});

describe('assertionAlgorithm', () => {
  it("sends alg 'Ed25519' from the client option, and the server accepts it", async () => {
    const clock = new ManualClock();
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    server = await TokenServer.start({
      clock,
      clientId: CLIENT_ID,
      issuer: ISSUER,
      publicKey,
      algorithms: ['Ed25519'],
    });
    client = new PartnerEquity({
      baseUrl: server.baseUrl,
      clientId: CLIENT_ID,
      issuer: ISSUER,
      clock,
      privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
      assertionAlgorithm: 'Ed25519',
    });
    await client.oauth.info();
    expect(server.tokenRequests[0]?.header?.['alg']).toBe('Ed25519');
    expect(server.tokenRequests[0]?.outcome).toBe(201);
  });

  it('refuses any other algorithm name when the client is built', () => {
    expect(
      () => new PartnerEquity({ ...baseOptions, privateKey: 'x', assertionAlgorithm: 'RS256' as 'EdDSA' }),
    ).toThrow(/assertionAlgorithm/);
  });
});
