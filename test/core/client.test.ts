import { generateKeyPairSync } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import { InputValidationError, InternalServerError } from '../../src/core/errors/errors.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { scriptedAuthenticator } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const Ok = z.looseObject({ ok: z.literal(true) });
const ok = { status: 200, body: { ok: true } } as const;

const clients: PartnerEquity[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function client(options: Partial<ClientOptions> = {}): PartnerEquity {
  const created = new PartnerEquity({
    baseUrl: server().url,
    clock: drivingClock(),
    logger: memoryLogger(),
    authenticator: scriptedAuthenticator(['at_1']).authenticator,
    ...options,
  });
  clients.push(created);
  return created;
}

const get = (c: PartnerEquity, path = '/v1/spv-requests') =>
  c._requester.request({ method: 'GET', path, response: Ok });

function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputValidationError);
    return (error as InputValidationError).issues.map((issue) => issue.path);
  }
  throw new Error('expected an InputValidationError');
}

describe('client options', () => {
  it('names every bad field at once', () => {
    const paths = issuesOf(
      () =>
        new PartnerEquity({
          baseUrl: 'ftp://example.test',
          maxRetries: -1,
          timeout: 0,
          logLevel: 'loud' as 'debug',
          retry: { maxDelayMs: -5 },
          defaultHeaders: { 'x-n': 1 as unknown as string },
        }),
    );
    expect(paths).toEqual(
      expect.arrayContaining([
        'baseUrl',
        'maxRetries',
        'timeout',
        'logLevel',
        'retry.maxDelayMs',
        'defaultHeaders.x-n',
      ]),
    );
  });

  it('refuses unknown options (typos) and partial credentials', () => {
    const error = (() => {
      try {
        new PartnerEquity({ baseUrl: 'https://api.example.test', maxRetry: 3 } as ClientOptions);
      } catch (e) {
        return e as InputValidationError;
      }
      return undefined;
    })();
    expect(error?.message).toContain('maxRetry');
    expect(issuesOf(() => new PartnerEquity({ baseUrl: 'https://api.example.test', clientId: 'c' }))).toEqual(
      expect.arrayContaining(['issuer', 'privateKey']),
    );
    expect(issuesOf(() => new PartnerEquity({ baseUrl: 'https://api.example.test/?env=1' }))).toEqual([
      'baseUrl',
    ]);
  });

  it('never shows the private key in errors, util.inspect or JSON', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const body = pem.split('\n')[1] ?? '';
    const c = client({
      authenticator: undefined,
      clientId: 'client_1',
      issuer: 'https://p.example',
      privateKey: pem,
    });
    expect(inspect(c, { depth: 10, showHidden: true })).not.toContain(body);
    expect(JSON.stringify(c)).not.toContain(body);
    let message = '';
    try {
      new PartnerEquity({ baseUrl: 'https://api.example.test', privateKey: pem, timeout: -1 });
    } catch (error) {
      message = `${(error as Error).message} ${inspect(error)}`;
    }
    expect(message).toContain('timeout');
    expect(message).not.toContain(body);
  });
});

describe('client pipeline', () => {
  it('applies defaultHeaders, timeout and maxRetries from the options', async () => {
    server().reply({ status: 503 }, ok);
    const c = client({ defaultHeaders: { 'x-partner-trace': 'abc' }, maxRetries: 1 });
    const { response } = await get(c).withResponse();
    expect(response.attempts).toBe(2);
    expect(server().requests.map((r) => r.headers['x-partner-trace'])).toEqual(['abc', 'abc']);
    expect(server().requests[0]?.headers['authorization']).toBe('Bearer at_1');
  });

  it('keeps a base path', async () => {
    server().fallback((request) => (request.path === '/api/v1/contracts' ? ok : { status: 404 }));
    await get(client({ baseUrl: `${server().url}/api` }), '/v1/contracts');
    expect(server().requests[0]?.path).toBe('/api/v1/contracts');
  });

  it('uses the fetch option as its transport', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    server().reply(ok);
    await get(client({ fetch: counting }));
    expect(calls).toBe(1);
  });
});

describe('withOptions', () => {
  it('derives a client with other settings, leaving the parent unchanged', async () => {
    const parent = client({ maxRetries: 2, defaultHeaders: { 'x-a': 'parent', 'x-b': 'parent' } });
    const child = parent.withOptions({ maxRetries: 0, defaultHeaders: { 'x-b': 'child' } });
    server().reply({ status: 503 });
    await expect(get(child)).rejects.toBeInstanceOf(InternalServerError);
    expect(server().requests).toHaveLength(1);
    expect(server().requests[0]?.headers['x-a']).toBe('parent');
    expect(server().requests[0]?.headers['x-b']).toBe('child');

    server().reply({ status: 503 }, ok);
    await get(parent);
    expect(server().requests).toHaveLength(3);
    expect(server().requests[2]?.headers['x-b']).toBe('parent');
  });

  it('shares the keep-alive connections and the authenticator with the parent', async () => {
    const { authenticator, calls } = scriptedAuthenticator(['at_shared']);
    const parent = client({ authenticator });
    const child = parent.withOptions({ timeout: 1_000 });
    server().fallback(() => ok);
    for (let i = 0; i < 3; i++) await get(parent);
    for (let i = 0; i < 3; i++) await get(child);
    const ports = server().requests.map((r) => r.remotePort);
    const parentPorts = new Set(ports.slice(0, 3));
    // A separate agent would have to open connections of its own, from new ports.
    for (const port of ports.slice(3)) expect(parentPorts).toContain(port);
    expect(calls.getToken).toBe(6);
    expect(server().requests[5]?.headers['authorization']).toBe('Bearer at_shared');
  });

  it('refuses to change what the shared pool and tokens depend on', () => {
    const parent = client();
    expect(() => parent.withOptions({ baseUrl: 'https://other.example' } as never)).toThrow(
      InputValidationError,
    );
    expect(() => parent.withOptions({ timeout: -1 })).toThrow(InputValidationError);
  });
});
