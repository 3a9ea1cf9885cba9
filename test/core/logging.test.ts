import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { levelLogger, resolveLogLevel } from '../../src/core/logging/logger.js';
import { redact, redactHeaders } from '../../src/core/logging/redact.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { scriptedAuthenticator, testRequester } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const Any = z.unknown();

const ACCESS = 'at_9f8e7d6c5b4a-access-secret';
const REFRESH = 'rt_1a2b3c4d5e6f-refresh-secret';
const NEW_ACCESS = 'at_new_access_secret_value';
const NEW_REFRESH = 'rt_new_refresh_secret_value';
const ASSERTION = 'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL3AuZXhhbXBsZSJ9.c2lnbmF0dXJl';

describe('debug logging', () => {
  it('logs each attempt with method, path, status, attempt and duration — and never a token', async () => {
    const logger = memoryLogger();
    const requester = testRequester(server().url, {
      logger,
      logLevel: 'debug',
      authenticator: scriptedAuthenticator([ACCESS]).authenticator,
    });
    server().reply(
      { status: 503, body: { code: 'unavailable' } },
      { status: 200, body: { clientId: 'client_123' }, headers: { 'x-request-id': 'req_9' } },
      {
        status: 201,
        body: { accessToken: NEW_ACCESS, refreshToken: NEW_REFRESH, tokenType: 'Bearer', expiresIn: 3600 },
        headers: { 'set-cookie': `sid=${NEW_ACCESS}` },
      },
      { status: 201, body: { accessToken: NEW_ACCESS, refreshToken: NEW_REFRESH } },
    );

    await requester.request({ method: 'GET', path: '/v1/oauth2/info', response: Any });
    await requester.request({
      method: 'POST',
      path: '/v1/oauth2/tokens',
      form: { grant_type: 'refresh_token', refresh_token: REFRESH },
      response: Any,
    });
    await requester.request({
      method: 'POST',
      path: '/v1/oauth2/tokens',
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: ASSERTION },
      response: Any,
    });

    // The secrets really went over the wire…
    expect(server().requests[0]?.headers['authorization']).toBe(`Bearer ${ACCESS}`);
    expect(server().requests[2]?.text).toContain(REFRESH);
    // …and none of them reached the log.
    const text = logger.text();
    for (const secret of [ACCESS, REFRESH, NEW_ACCESS, NEW_REFRESH, ASSERTION, 'c2lnbmF0dXJl']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[REDACTED]');

    const attempts = logger.lines.filter(
      (line) => line.fields?.['attempt'] !== undefined && 'status' in (line.fields ?? {}),
    );
    expect(
      attempts.map((line) => [
        line.fields?.['method'],
        line.fields?.['path'],
        line.fields?.['status'],
        line.fields?.['attempt'],
      ]),
    ).toEqual([
      ['GET', '/v1/oauth2/info', 503, 1],
      ['GET', '/v1/oauth2/info', 200, 2],
      ['POST', '/v1/oauth2/tokens', 201, 1],
      ['POST', '/v1/oauth2/tokens', 201, 1],
    ]);
    for (const line of attempts) {
      expect(line.level).toBe('debug');
      expect(typeof line.fields?.['durationMs']).toBe('number');
    }
    expect(attempts[1]?.message).toMatch(/^GET \/v1\/oauth2\/info → 200 \(attempt 2, \d+ms\)$/);
    expect(attempts[1]?.fields?.['requestId']).toBe('req_9');
    expect(attempts[2]?.fields?.['requestBody']).toEqual({
      grant_type: 'refresh_token',
      refresh_token: '[REDACTED]',
    });
    expect(logger.lines.some((line) => line.message.startsWith('GET /v1/oauth2/info: retrying in '))).toBe(
      true,
    );
  });

  it('logs nothing below the level', async () => {
    const logger = memoryLogger();
    server().reply({ status: 200, body: {} });
    await testRequester(server().url, { logger: levelLogger(logger, 'warn'), logLevel: 'warn' }).request({
      method: 'GET',
      path: '/v1/contracts',
      auth: 'optional',
      response: Any,
    });
    expect(logger.lines).toEqual([]);
  });
});

describe('log levels', () => {
  it('takes the option first, then PARTNER_EQUITY_LOG, then warn', () => {
    expect(resolveLogLevel('error', 'debug')).toBe('error');
    expect(resolveLogLevel(undefined, 'DEBUG')).toBe('debug');
    expect(resolveLogLevel(undefined, 'verbose')).toBe('warn');
    expect(resolveLogLevel(undefined, undefined)).toBe('warn');
  });

  it('filters by level', () => {
    const logger = memoryLogger();
    const filtered = levelLogger(logger, 'info');
    filtered.debug('d');
    filtered.info('i');
    filtered.warn('w');
    filtered.error('e');
    levelLogger(logger, 'off').error('never');
    expect(logger.lines.map((line) => line.message)).toEqual(['i', 'w', 'e']);
  });
});

describe('redact', () => {
  it('redacts credential headers', () => {
    expect(
      redactHeaders({
        Authorization: 'Bearer x',
        cookie: 'a=b',
        'idempotency-key': 'k1',
        'x-other': 'Bearer abc',
      }),
    ).toEqual({
      Authorization: '[REDACTED]',
      cookie: '[REDACTED]',
      'idempotency-key': 'k1',
      'x-other': '[REDACTED]',
    });
  });

  it('redacts secret-named fields at any depth and secret-shaped strings anywhere', () => {
    expect(
      redact({
        accessToken: 'a',
        nested: [
          { refresh_token: 'r', client_secret: 's', privateKey: 'p', tokenType: 'Bearer', expiresIn: 5 },
        ],
        note: `key -----BEGIN PRIVATE KEY-----\nMC4CAQ\n-----END PRIVATE KEY----- and whsec_abc123`,
      }),
    ).toEqual({
      accessToken: '[REDACTED]',
      nested: [
        {
          refresh_token: '[REDACTED]',
          client_secret: '[REDACTED]',
          privateKey: '[REDACTED]',
          tokenType: 'Bearer',
          expiresIn: 5,
        },
      ],
      note: 'key [REDACTED] and [REDACTED]',
    });
  });

  it('reads JSON and form strings', () => {
    expect(redact('grant_type=refresh_token&refresh_token=rt_1')).toBe(
      'grant_type=refresh_token&refresh_token=[REDACTED]',
    );
    expect(redact('{"assertion":"x","ok":1}')).toBe('{"assertion":"[REDACTED]","ok":1}');
  });
});
