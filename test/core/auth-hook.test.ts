import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AuthenticationError,
  InputValidationError,
  PermissionDeniedError,
} from '../../src/core/errors/errors.js';
import { OPERATIONS, type Operation } from '../../src/resources/operations.js';
import { scriptedAuthenticator, testRequester } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const Ok = z.looseObject({ ok: z.literal(true) });
const ok = { status: 200, body: { ok: true } } as const;
const unauthorized = {
  status: 401,
  body: { code: 'invalid_token', detail: 'token expired', errorId: 'e401' },
};

describe('route table', () => {
  it.each([
    ['oauth.info', 'bearer'],
    ['spvRequests.list', 'bearer'],
    ['spvRequests.cancel', 'bearer'],
    ['investors.create', 'bearer'],
    ['subscriptions.create', 'bearer'],
    ['subscriptions.uploadSignedForm', 'bearer'],
    ['system.root', 'none'],
    ['system.health', 'none'],
    ['system.openapi', 'none'],
    ['system.docs', 'none'],
    ['contracts.versions', 'optional'],
    ['contracts.templates.get', 'optional'],
    ['oauth.token', 'none'],
  ] as const)('%s → %s', (name, expected) => {
    expect((OPERATIONS[name] as Operation).auth ?? 'bearer').toBe(expected);
  });

  it('a request that names no operation needs a bearer token (a new route fails closed)', async () => {
    await expect(
      testRequester(server().url).request({ method: 'GET', path: '/v1/new-thing', response: Ok }),
    ).rejects.toBeInstanceOf(InputValidationError);
    expect(server().requests).toHaveLength(0);
  });
});

describe('auth hook', () => {
  it('sends the bearer token on bearer and optional routes, never on public ones', async () => {
    const { authenticator, calls } = scriptedAuthenticator(['at_1', 'at_1']);
    const requester = testRequester(server().url, { authenticator });
    server().reply(ok, ok, ok);
    await requester.request({ method: 'GET', path: '/v1/spv-requests', response: Ok });
    await requester.request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok });
    await requester.request({ method: 'GET', path: '/public/hc', auth: 'none', response: Ok });
    expect(server().requests.map((r) => r.headers['authorization'])).toEqual([
      'Bearer at_1',
      'Bearer at_1',
      undefined,
    ]);
    expect(calls.getToken).toBe(2);
  });

  it('an optional route goes without a token when the client has no credentials', async () => {
    server().reply(ok);
    await testRequester(server().url).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Ok,
    });
    expect(server().requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('on a 401 asks onUnauthorized with the failed token, then retries once with the new token', async () => {
    const { authenticator, calls } = scriptedAuthenticator(['at_old', 'at_new']);
    server().reply(unauthorized, ok);
    const { response } = await testRequester(server().url, { authenticator, maxRetries: 0 })
      .request({ method: 'GET', path: '/v1/oauth2/info', response: Ok })
      .withResponse();
    expect(calls.onUnauthorized).toEqual(['at_old']);
    expect(server().requests.map((r) => r.headers['authorization'])).toEqual([
      'Bearer at_old',
      'Bearer at_new',
    ]);
    expect(response.attempts).toBe(2);
  });

  it('surfaces a second 401 as AuthenticationError without asking again', async () => {
    const { authenticator, calls } = scriptedAuthenticator(['at_old', 'at_new']);
    server().reply(unauthorized, unauthorized);
    const error = await testRequester(server().url, { authenticator })
      .request({ method: 'GET', path: '/v1/oauth2/info', response: Ok })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_token', attempts: 2 });
    expect(calls.onUnauthorized).toEqual(['at_old']);
    expect(server().requests).toHaveLength(2);
  });

  it('surfaces the 401 when the authenticator has nothing newer', async () => {
    const { authenticator, calls } = scriptedAuthenticator(['at_1'], { renew: false });
    server().reply(unauthorized);
    await expect(
      testRequester(server().url, { authenticator }).request({
        method: 'GET',
        path: '/v1/oauth2/info',
        response: Ok,
      }),
    ).rejects.toBeInstanceOf(AuthenticationError);
    expect(calls.onUnauthorized).toEqual(['at_1']);
    expect(server().requests).toHaveLength(1);
  });

  it('the 401 re-send does not use up a retry: a later 503 is still retried', async () => {
    const { authenticator } = scriptedAuthenticator(['at_old', 'at_new']);
    server().reply(unauthorized, { status: 503 }, ok);
    const { response } = await testRequester(server().url, { authenticator, maxRetries: 1 })
      .request({ method: 'GET', path: '/v1/spv-requests', response: Ok })
      .withResponse();
    expect(response.attempts).toBe(3);
    expect(server().requests.map((r) => r.headers['authorization'])).toEqual([
      'Bearer at_old',
      'Bearer at_new',
      'Bearer at_new',
    ]);
  });

  it('never retries a 403 or asks for a new token on it', async () => {
    const { authenticator, calls } = scriptedAuthenticator(['at_1']);
    server().reply({
      status: 403,
      body: { code: 'not_provisioned', detail: 'not provisioned', errorId: 'e' },
    });
    await expect(
      testRequester(server().url, { authenticator }).request({
        method: 'GET',
        path: '/v1/investors',
        response: Ok,
      }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(calls.onUnauthorized).toEqual([]);
  });

  it('does not retry a failure of the token hook itself', async () => {
    let asked = 0;
    const authenticator = {
      getToken: async () => {
        asked += 1;
        throw new Error('token exchange failed');
      },
      onUnauthorized: async () => false,
    };
    await expect(
      testRequester(server().url, { authenticator }).request({
        method: 'GET',
        path: '/v1/investors',
        response: Ok,
      }),
    ).rejects.toThrow('token exchange failed');
    expect(asked).toBe(1);
    expect(server().requests).toHaveLength(0);
  });

  it('refuses a bearer route without credentials before sending anything', async () => {
    const error = await testRequester(server().url)
      .request({ method: 'GET', path: '/v1/spv-requests', response: Ok })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as Error).message).toContain('GET /v1/spv-requests needs credentials');
    expect(server().requests).toHaveLength(0);
  });
});
