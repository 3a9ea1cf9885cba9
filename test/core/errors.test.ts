import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PartnerEquityError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from '../../src/core/errors/errors.js';
import { undiciTransport } from '../../src/core/transport/transport.js';
import { scriptedAuthenticator, testRequester } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const Ok = z.looseObject({ ok: z.literal(true) });

function call(query?: Record<string, string>) {
  return testRequester(server().url, {
    maxRetries: 0,
    authenticator: scriptedAuthenticator(['at_secret_token'], { renew: false }).authenticator,
  })
    .request({ method: 'GET', path: '/v1/spv-requests/spvr_1', query, response: Ok })
    .catch((e: unknown) => e);
}

const envelope = (code: string) => ({
  code,
  detail: `detail of ${code}`,
  errorId: `err_${code}`,
  validationErrors: [{ attribute: 'attributes.fundName', code: 'required', message: 'fundName is required' }],
});

describe('error mapping', () => {
  it.each([
    [400, BadRequestError, 'contract_validation_failed'],
    [401, AuthenticationError, 'invalid_token'],
    [403, PermissionDeniedError, 'not_provisioned'],
    [404, NotFoundError, 'spv_request_not_found'],
    [409, ConflictError, 'terminal_state'],
    [413, PayloadTooLargeError, 'file_too_large'],
    [415, UnsupportedMediaTypeError, 'unsupported_media_type'],
    [429, RateLimitError, 'rate_limited'],
    [500, InternalServerError, 'internal'],
    [502, InternalServerError, 'bad_gateway'],
    [503, InternalServerError, 'unavailable'],
  ])('maps %i with a partner envelope to %o', async (status, ErrorClass, code) => {
    server().reply({ status, body: envelope(code), headers: { 'x-request-id': `req_${status}` } });
    const error = await call();
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PartnerEquityError);
    expect(error).toMatchObject({
      status,
      code,
      detail: `detail of ${code}`,
      errorId: `err_${code}`,
      validationErrors: [
        { attribute: 'attributes.fundName', code: 'required', message: 'fundName is required' },
      ],
      requestId: `req_${status}`,
      method: 'GET',
      path: '/v1/spv-requests/spvr_1',
      attempts: 1,
      name: ErrorClass.name,
    });
    const message = (error as Error).message;
    expect(message).toContain(`GET /v1/spv-requests/spvr_1 → ${status}: detail of ${code}`);
    expect(message).toContain('attributes.fundName: fundName is required');
    expect(message).toContain(`errorId err_${code}`);
    expect((error as APIError).headers.get('x-request-id')).toBe(`req_${status}`);
  });

  it('maps 422 with the validation envelope and its detail[] issues', async () => {
    server().reply({
      status: 422,
      body: {
        detail: [
          {
            loc: ['query', 'perPage'],
            msg: 'Input should be less than or equal to 100',
            type: 'less_than_equal',
          },
          {
            loc: ['body', 'investors', '0', 'email'],
            msg: 'value is not a valid email address',
            type: 'value_error',
          },
        ],
      },
    });
    const error = await call();
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    const e = error as UnprocessableEntityError;
    expect(e.code).toBe('unprocessable_entity');
    expect(e.issues).toEqual([
      {
        loc: ['query', 'perPage'],
        msg: 'Input should be less than or equal to 100',
        type: 'less_than_equal',
      },
      {
        loc: ['body', 'investors', '0', 'email'],
        msg: 'value is not a valid email address',
        type: 'value_error',
      },
    ]);
    expect(e.message).toContain('query.perPage: Input should be less than or equal to 100');
    expect(e.message).toContain('body.investors.0.email: value is not a valid email address');
  });

  it('maps a proxy HTML 502 page to InternalServerError with a short, markup-free excerpt', async () => {
    const page = `<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><h1>502 Bad Gateway</h1>${'<p>padding</p>'.repeat(100)}</body></html>`;
    server().reply({ status: 502, body: page, headers: { 'content-type': 'text/html' } });
    const error = (await call()) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBe('internal_server_error');
    expect(error.detail).toBeUndefined();
    expect(typeof error.body).toBe('string');
    expect(error.body as string).toMatch(/^502 Bad Gateway 502 Bad Gateway padding/);
    expect((error.body as string).length).toBeLessThanOrEqual(201);
    expect(error.message).toContain('GET /v1/spv-requests/spvr_1 → 502 (non-JSON body: "502 Bad Gateway');
    expect(error.message).not.toContain('<');
  });

  it('keeps query strings, tokens and cookies out of messages and error objects', async () => {
    server().reply({
      status: 404,
      body: { code: 'not_found', detail: 'nothing here', errorId: 'e' },
      headers: { 'set-cookie': 'session=s3cr3t-cookie' },
    });
    const error = (await call({ apiKey: 'query-secret' })) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    const shown = `${error.message}\n${inspect(error, { depth: 10 })}\n${JSON.stringify(error)}`;
    expect(shown).not.toContain('query-secret');
    expect(shown).not.toContain('at_secret_token');
    expect(shown).not.toContain('s3cr3t-cookie');
    expect(server().requests[0]?.headers['authorization']).toBe('Bearer at_secret_token');
  });

  it('reports a success body that breaks the schema by field path, keeping the body redacted (strict)', async () => {
    server().reply({
      status: 200,
      body: { ok: 'yes', accessToken: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.sig' },
    });
    const error = (await call()) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.code).toBe('response_validation');
    expect(error.issues.map((issue) => issue.path)).toEqual(['ok']);
    expect(error.message).toContain(
      'GET /v1/spv-requests/spvr_1: 200 response did not match the API spec: ok:',
    );
    expect(error.body).toEqual({ ok: 'yes', accessToken: '[REDACTED]' });
    const shown = `${error.message}\n${inspect(error, { depth: 10 })}\n${JSON.stringify(error)}`;
    expect(shown).not.toContain('eyJhbGciOiJFZERTQSJ9');
  });

  it('reports a JSON content type with a body that is not JSON', async () => {
    server().reply({
      status: 200,
      body: '{"refreshToken":"rt_secret',
      headers: { 'content-type': 'application/json' },
    });
    const error = (await call()) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe('GET /v1/spv-requests/spvr_1: 200 response is not JSON (application/json)');
    expect(error.body).toBe('{"refreshToken":"[REDACTED]');
    expect(inspect(error, { depth: 10 })).not.toContain('rt_secret');
  });

  it('stops reading a response over maxResponseBytes', async () => {
    server().reply({ status: 200, body: { ok: true, padding: 'x'.repeat(5_000) } });
    const error = await testRequester(server().url, {
      transport: undiciTransport({ maxResponseBytes: 1_000 }),
    })
      .request({ method: 'GET', path: '/v1/contracts', auth: 'optional', response: Ok })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ code: 'response_too_large', limit: 1_000 });
    expect(server().requests).toHaveLength(1);
  });
});
