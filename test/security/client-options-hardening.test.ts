import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import { InputValidationError } from '../../src/core/errors/errors.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { useTestServer } from '../helpers/test-server.js';

/**
 * Findings 1 and 5 of the security review (issue 16): a plain-http `baseUrl` to any host was accepted
 * silently (assertion and tokens then travel in cleartext), and `defaultHeaders` were not checked (a CR/LF
 * value built a client whose every call failed as a retried "connection error").
 */
const server = useTestServer();

function refusal(build: () => unknown): InputValidationError {
  try {
    build();
  } catch (error) {
    if (error instanceof InputValidationError) return error;
    throw error;
  }
  throw new Error('the client was built');
}

describe('plain http is for this machine only', () => {
  it.each([
    'http://api.example',
    'http://sandbox.example-partner-equity.com/base',
    'http://10.0.0.7:8080',
    'http://[2001:db8::1]',
    'http://localhost.evil.example',
    'http://128.0.0.1',
  ])('refuses %s, naming baseUrl and the opt-in option', (baseUrl) => {
    const error = refusal(() => new PartnerEquity({ baseUrl }));
    expect(error.issues.map((issue) => issue.path)).toEqual(['baseUrl']);
    expect(error.message).toContain('allowInsecureHttp');
    expect(error.message).toContain('cleartext');
  });

  it.each([
    'http://localhost:4010',
    'http://LOCALHOST',
    'http://127.0.0.1:4010',
    'http://127.8.9.10',
    'http://[::1]:4010',
    'https://api.example',
  ])('accepts %s', (baseUrl) => {
    expect(() => new PartnerEquity({ baseUrl })).not.toThrow();
  });

  it('accepts plain http to another host with allowInsecureHttp: true, and says so in a warning once', () => {
    const logger = memoryLogger();
    const client = new PartnerEquity({ baseUrl: 'http://api.example', allowInsecureHttp: true, logger });
    client.withOptions({ maxRetries: 1 });
    expect(logger.lines.map((line) => [line.level, line.message])).toEqual([
      ['warn', 'baseUrl is plain http to another host (allowInsecureHttp): tokens travel in cleartext'],
    ]);
  });

  it('refuses a non-boolean allowInsecureHttp', () => {
    const error = refusal(
      () => new PartnerEquity({ baseUrl: 'http://api.example', allowInsecureHttp: 'yes' as never }),
    );
    expect(error.issues.map((issue) => issue.path)).toContain('allowInsecureHttp');
  });
});

describe('defaultHeaders are checked like per-call headers', () => {
  it.each([
    ['x-trace', 'a\r\nx-injected: 1', 'defaultHeaders.x-trace'],
    ['x-trace', 'a\nb', 'defaultHeaders.x-trace'],
    ['x-trace', 'nul\0', 'defaultHeaders.x-trace'],
    ['x-trace', 'bell\u0007', 'defaultHeaders.x-trace'],
    ['x-trace', 'euro €', 'defaultHeaders.x-trace'],
    ['bad name', 'v', 'defaultHeaders.bad name'],
    ['x:colon', 'v', 'defaultHeaders.x:colon'],
  ])('refuses %j: %j when the client is built, naming %s, and sends nothing', (name, value, path) => {
    const error = refusal(
      () => new PartnerEquity({ baseUrl: server().url, defaultHeaders: { [name]: value } }),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([path]);
    expect(server().requests).toHaveLength(0);
  });

  it('refuses them in withOptions() too', () => {
    const client = new PartnerEquity({ baseUrl: server().url, defaultHeaders: { 'x-team': 'ok' } });
    const error = refusal(() => client.withOptions({ defaultHeaders: { 'x-team': 'a\r\nb' } }));
    expect(error.issues.map((issue) => issue.path)).toEqual(['defaultHeaders.x-team']);
  });

  it('sends valid ones (tabs, latin-1 text) on every call', async () => {
    server().reply({ status: 200, body: {} });
    const client = new PartnerEquity({
      baseUrl: server().url,
      defaultHeaders: { 'x-team': 'ops\tcafé' },
      maxRetries: 0,
    });
    // Only the request matters here (the answer's shape is another test's business).
    await client.system.root().catch(() => undefined);
    await client.close();
    expect(server().requests[0]?.headers['x-team']).toBe(
      Buffer.from('ops\tcafé', 'latin1').toString('latin1'),
    );
  });
});
