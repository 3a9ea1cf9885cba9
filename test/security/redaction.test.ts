import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIError, AuthenticationError } from '../../src/core/errors/errors.js';
import { isPersonalDataKey, redact, redactText } from '../../src/core/logging/redact.js';
import { MAX_SECRETS, SecretRegistry } from '../../src/core/logging/secret-registry.js';
import { startEnv } from '../reliability/fake-env.js';

/** The redaction mechanism itself: by value (a client's registry), by shape, by field name. */
describe('SecretRegistry', () => {
  it('replaces remembered values and their URL-encoded form; ignores values too short to be secrets', () => {
    const secrets = new SecretRegistry();
    secrets.add('pe_at_0123456789/abc+def=');
    secrets.add('short');
    secrets.add(undefined);
    expect(secrets.replace('a pe_at_0123456789/abc+def= b pe_at_0123456789%2Fabc%2Bdef%3D c short')).toBe(
      'a [REDACTED] b [REDACTED] c short',
    );
  });

  it(`remembers the ${MAX_SECRETS} newest values only`, () => {
    const secrets = new SecretRegistry();
    for (let i = 0; i < MAX_SECRETS + 5; i += 1) secrets.add(`token_number_${String(i).padStart(3, '0')}`);
    expect(secrets.size).toBe(MAX_SECRETS);
    expect(secrets.replace('token_number_000')).toBe('token_number_000');
    expect(secrets.replace(`token_number_0${MAX_SECRETS + 4}`)).toBe('[REDACTED]');
  });

  it('shows no value in inspect or JSON', () => {
    const secrets = new SecretRegistry();
    secrets.add('pe_rt_abcdefghijklmnop');
    // The value and its standard-base64 form.
    expect(inspect(secrets, { showHidden: true, depth: 9 })).toBe('SecretRegistry { size: 2 }');
    expect(JSON.stringify(secrets)).toBe('{"size":2}');
  });
});

describe('shapes and field names', () => {
  it('redacts a bearer credential but keeps auth-params such as realm and error', () => {
    expect(redactText('Authorization: Bearer abc.def-ghi')).toBe('Authorization: [REDACTED]');
    expect(redactText('Bearer dGVzdA==')).toBe('[REDACTED]');
    expect(redactText('Bearer realm="api", error="invalid_token"')).toBe(
      'Bearer realm="api", error="invalid_token"',
    );
    expect(redactText('Bearer error=invalid_token')).toBe('Bearer error=invalid_token');
  });

  it('masks personal data fields and e-mail addresses only when asked', () => {
    const row = {
      partnerInvestorId: 'inv-1',
      email: 'ada@example.com',
      firstName: 'Ada',
      date_of_birth: '1985-02-28',
      note: 'ada@example.com',
    };
    expect(redact(row, { maskPersonalData: true })).toEqual({
      partnerInvestorId: 'inv-1',
      email: '[MASKED]',
      firstName: '[MASKED]',
      date_of_birth: '[MASKED]',
      note: '[MASKED]',
    });
    expect(redact(row)).toEqual(row);
    for (const key of ['lastName', 'last_name', 'Email', 'phoneNumber', 'dob', 'nationalId']) {
      expect(isPersonalDataKey(key), key).toBe(true);
    }
    for (const key of ['name', 'templateId', 'countryOfResidence', 'shareClassSlug']) {
      expect(isPersonalDataKey(key), key).toBe(false);
    }
  });
});

describe('APIError is redacted when built', () => {
  it('by value and by shape: message, stack, detail, body, headers, request id', () => {
    const secrets = new SecretRegistry();
    secrets.add('pe_at_0123456789abcdef');
    const error = APIError.from({
      status: 401,
      method: 'GET',
      path: '/v1/oauth2/info',
      headers: new Headers({
        'x-request-id': 'req pe_at_0123456789abcdef',
        'set-cookie': 'sid=1',
        'x-ok': 'fine',
      }),
      requestId: 'req pe_at_0123456789abcdef',
      idempotencyKey: undefined,
      attempts: 1,
      body: {
        detail: 'token pe_at_0123456789abcdef and eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln expired',
        accessToken: 'x',
      },
      retryAfterMs: undefined,
      secrets,
    });
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      'GET /v1/oauth2/info → 401: token [REDACTED] and [REDACTED] expired [requestId req [REDACTED]]',
    );
    expect(error.stack).toContain('token [REDACTED] and [REDACTED] expired');
    expect(error.body).toEqual({
      detail: 'token [REDACTED] and [REDACTED] expired',
      accessToken: '[REDACTED]',
    });
    expect([...error.headers]).toEqual([
      ['x-ok', 'fine'],
      ['x-request-id', 'req [REDACTED]'],
    ]);
    expect(inspect(error) + JSON.stringify(error)).not.toMatch(/0123456789abcdef|eyJ/);
  });
});

describe('the hot path', () => {
  afterEach(() => vi.restoreAllMocks());

  it('redacts nothing for successful calls when logging is below debug', async () => {
    const replace = vi.spyOn(SecretRegistry.prototype, 'replace');
    const env = await startEnv({ client: { logLevel: 'warn' } });
    try {
      for (let i = 0; i < 20; i += 1) await env.client.oauth.info();
      expect(replace).not.toHaveBeenCalled();
    } finally {
      await env.close();
    }
  });
});
