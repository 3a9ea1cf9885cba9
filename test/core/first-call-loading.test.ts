import { afterEach, describe, expect, it } from 'vitest';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { runScript } from '../cli/cli-process.js';

// Issue 48's cold start: the main entry loads what every call needs; npm undici (a proxy, a dispatcher)
// and the CLI's spreadsheet code load when (and only if) something uses them; jose (the fake's verifier)
// never on the SDK's path. The default transport is Node's own http client.
let fake: FakePartnerEquity | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Loaded {
  atImport: string[];
  byCall: string[];
  clientId: string;
}

/** Imports the SDK in a fresh process and makes one authenticated call to a fake, with `env` added. */
async function firstCall(env: Record<string, string> = {}): Promise<Loaded & { expectedClientId: string }> {
  fake = new FakePartnerEquity();
  await fake.listen();
  const { baseUrl, clientId, issuer, privateKey } = await fake.createPartner();
  const partner = JSON.stringify({ baseUrl, clientId, issuer, privateKey });
  const { status, stdout, stderr } = await runScript('test/helpers/modules-at-first-call.ts', [], {
    env: { PE_TEST_PARTNER: partner, ...env },
  });
  expect(stderr).toBe('');
  expect(status).toBe(0);
  return { ...(JSON.parse(stdout) as Loaded), expectedClientId: clientId };
}

const from = (modules: string[], pattern: RegExp) => modules.filter((path) => pattern.test(path));
const JOSE = /^node_modules\/jose\//;
const UNDICI = /^node_modules\/undici\//;
// Clear both spellings of each proxy variable the test runner's shell may hold.
const NO_PROXY_ENV = { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '' };

describe('the first call loads what it needs, and the import nothing more', () => {
  it('import: no jose, npm undici, CSV parser, country names or CLI; the first call: none of them', async () => {
    const { atImport, byCall, clientId, expectedClientId } = await firstCall(NO_PROXY_ENV);
    expect(clientId).toBe(expectedClientId);
    // The hook sees our modules and dependencies (a blind list would pass anything below).
    expect(atImport).toEqual(
      expect.arrayContaining(['src/client.ts', expect.stringMatching(/^node_modules\/zod\//)]),
    );
    expect(from(atImport, JOSE)).toEqual([]);
    expect(from(atImport, UNDICI)).toEqual([]);
    expect(from(atImport, /^node_modules\/(csv-parse|i18n-iso-countries)\/|^src\/cli\//)).toEqual([]);
    // The first signature is node:crypto's: no jose module at all.
    expect(from(byCall, JOSE)).toEqual([]);
    // The default transport is node:http: the first call loads no package at all.
    expect(from(byCall, /^node_modules\//)).toEqual([]);
  });

  it('a proxy variable: the first call imports undici, whose EnvHttpProxyAgent honours it', async () => {
    // NO_PROXY exempts the fake's host, so the call goes direct through undici's agent.
    const env = { ...NO_PROXY_ENV, HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1', no_proxy: '' };
    const { atImport, byCall, clientId, expectedClientId } = await firstCall(env);
    expect(clientId).toBe(expectedClientId);
    expect(from(atImport, UNDICI)).toEqual([]);
    expect(byCall).toContain('node_modules/undici/index.js');
    expect(from(byCall, JOSE)).toEqual([]);
  });
});
