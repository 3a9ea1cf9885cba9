import { generateKeyPairSync } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { PartnerEquity } from '../../src/client.js';
import {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  PermissionDeniedError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/core/errors/errors.js';
import { ManualClock } from '../../src/testing/index.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { useTestServer } from '../helpers/test-server.js';
import { Exposure } from './exposure.js';
import { quotingTokenServer } from './quoting-server.js';

/**
 * Finding 2 of the security review (issue 16): a server that quotes back the secret it refuses — the
 * assertion in a 400 detail or a 422 `input`, the access token in a 401 detail or a proxy's HTML 500
 * page, the refresh token in its refusal — must not put that secret in the error a partner catches
 * (message, stack, `String`, `util.inspect`, `JSON.stringify`, `body`, `detail`) nor in a log line. The
 * tokens here are opaque (`pe_at_…`): no shape gives them away, only redaction by value catches them.
 */
const server = useTestServer();
const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const clients: PartnerEquity[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function client(
  logger = memoryLogger(),
  shared: Partial<ConstructorParameters<typeof PartnerEquity>[0]> = {},
) {
  const built = new PartnerEquity({
    ...shared,
    baseUrl: server().url,
    clientId: 'client_quoted',
    issuer: 'https://api.partner.example',
    privateKey: pem,
    maxRetries: 0,
    logger,
    logLevel: 'debug',
  });
  clients.push(built);
  return built;
}

function leaksOf(error: unknown, secrets: { kind: string; value: string }[], logText = ''): string[] {
  const exposure = new Exposure();
  exposure.addError('error', error);
  exposure.add('log', logText);
  return exposure.leaks(secrets);
}

describe('secrets a server quotes back stay out of errors and logs', () => {
  it('a token endpoint 400 quoting the assertion (detail and 422-style input)', async () => {
    const seen = quotingTokenServer(server(), {
      '/v1/oauth2/tokens': [
        ({ form }) => ({
          status: 400,
          body: {
            code: 'invalid_grant',
            detail: `assertion ${form.get('assertion')} rejected`,
            input: form.get('assertion'),
            validationErrors: [{ attribute: 'assertion', code: 'bad', message: `${form.get('assertion')}` }],
          },
        }),
      ],
    });
    const logger = memoryLogger();
    const error = await client(logger)
      .oauth.info()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(seen.assertions).toHaveLength(1);
    expect(leaksOf(error, seen.all(), logger.text())).toEqual([]);
    // What the partner needs is still there.
    expect((error as BadRequestError).message).toMatch(
      /^POST \/v1\/oauth2\/tokens → 400: assertion \[REDACTED\] rejected/,
    );
    expect((error as BadRequestError).code).toBe('invalid_grant');
    expect((error as BadRequestError).body).toMatchObject({ input: '[REDACTED]' });
  });

  it("a 422 quoting the assertion in an issue's msg: the issues are redacted too", async () => {
    const seen = quotingTokenServer(server(), {
      '/v1/oauth2/tokens': [
        ({ form }) => ({
          status: 422,
          body: {
            detail: [
              { loc: ['body', 'assertion'], msg: `not ${form.get('assertion')}`, type: 'value_error' },
            ],
          },
        }),
      ],
    });
    const error = await client()
      .oauth.info()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(leaksOf(error, seen.all())).toEqual([]);
    // The issues are built from the redacted body, not from what the server sent.
    expect((error as UnprocessableEntityError).issues).toEqual([
      { loc: ['body', 'assertion'], msg: 'not [REDACTED]', type: 'value_error' },
    ]);
  });

  it('a 401 quoting the access token, a refresh refusal quoting the refresh token, a second 401', async () => {
    const revoked = ({ bearer }: { bearer: string | undefined }) => ({
      status: 401,
      headers: { 'x-upstream-said': `refused ${bearer}` },
      body: { code: 'token_revoked', detail: `token ${bearer} was revoked`, errorId: 'e1' },
    });
    const seen = quotingTokenServer(server(), {
      '/v1/oauth2/info': [null, revoked, revoked],
      // The refresh grant is refused, quoting the refresh token; the SDK falls back to a new assertion.
      '/v1/oauth2/tokens': [
        null,
        ({ form }) => ({
          status: 401,
          body: { code: 'refresh_token_reused', detail: `refresh token ${form.get('refresh_token')} reused` },
        }),
      ],
    });
    const partner = client();
    await partner.oauth.info();
    const error = await partner.oauth.info().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    const secrets = seen.all();
    expect(secrets.filter((s) => s.kind === 'access token')).toHaveLength(2);
    expect(seen.refreshTokensPresented).toHaveLength(1);
    expect(leaksOf(error, secrets)).toEqual([]);
    expect((error as AuthenticationError).detail).toBe('token [REDACTED] was revoked');
    expect((error as AuthenticationError).headers.get('x-upstream-said')).toBe('refused [REDACTED]');
  });

  it('a refusal quoting a refresh token this client never received (shared store): registered before it is sent', async () => {
    const seen = quotingTokenServer(server(), {
      '/v1/oauth2/tokens': [
        null,
        ({ form }) => ({
          status: 403,
          body: { code: 'client_suspended', detail: `refresh token ${form.get('refresh_token')} refused` },
        }),
      ],
    });
    const shared = { tokenStore: new MemoryTokenStore(), clock: new ManualClock(Date.UTC(2030, 0, 1)) };
    await client(memoryLogger(), shared).oauth.info(); // the first client obtains the pair
    await shared.clock.advance(3600_000 - 30_000); // the last minute: the next caller waits for a renewal
    const logger = memoryLogger();
    const error = await client(logger, shared)
      .oauth.info()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    // The second client presented the refresh token it took from the store, and the server quoted it.
    expect(seen.refreshTokensPresented).toEqual([seen.refreshTokens[0]]);
    expect(leaksOf(error, seen.all(), logger.text())).toEqual([]);
    expect((error as PermissionDeniedError).detail).toBe('refresh token [REDACTED] refused');
    expect((error as PermissionDeniedError).body).toMatchObject({
      detail: 'refresh token [REDACTED] refused',
    });
  });

  it("a proxy's HTML 500 page quoting the bearer token", async () => {
    const seen = quotingTokenServer(server(), {
      '/v1/oauth2/info': [
        ({ bearer }) => ({
          status: 500,
          headers: { 'content-type': 'text/html' },
          body: `<html><body><h1>500</h1><p>upstream refused ${bearer} for client_quoted</p></body></html>`,
        }),
      ],
    });
    const error = await client()
      .oauth.info()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(leaksOf(error, seen.all())).toEqual([]);
    expect((error as InternalServerError).body).toBe('500 upstream refused [REDACTED] for client_quoted');
  });

  it('a token that cannot go in a header is refused on arrival, with a typed error that does not quote it', async () => {
    const injected = `pe_at_${'a'.repeat(24)}\r\nx-injected: 1`;
    quotingTokenServer(server(), {
      '/v1/oauth2/tokens': [
        () => ({
          status: 201,
          body: { accessToken: injected, refreshToken: 'pe_rt_0123456789abcdef', tokenType: 'Bearer' },
        }),
      ],
    });
    const error = await client()
      .oauth.info()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toEqual(['accessToken']);
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(
      'aaaaaaaaaaaa',
    );
    expect(JSON.stringify(error)).not.toContain('aaaaaaaaaaaa');
    // Nothing was sent with it: the only request is the token exchange.
    expect(server().requests.map((request) => request.path)).toEqual(['/v1/oauth2/tokens']);
  });
});
