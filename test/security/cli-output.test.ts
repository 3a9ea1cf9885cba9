import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { useTestServer } from '../helpers/test-server.js';
import { Exposure } from './exposure.js';
import { quotingTokenServer } from './quoting-server.js';

/**
 * The `partner-equity token` command's output under the security review's findings (issue 16): with debug
 * logging on, log lines went to stdout before the token (finding 8), which broke `$(partner-equity token)`;
 * an assertion quoted back by the token endpoint reached stderr whole (finding 2); a plain-http base URL to
 * another host was used silently (finding 1).
 */
const server = useTestServer();
let dir: string;
let keyFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pe-cli-output-'));
  keyFile = join(dir, 'key.pem');
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  await writeFile(keyFile, pem, { mode: 0o600 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const env = (overrides: Record<string, string> = {}) => ({
  PE_BASE_URL: server().url,
  PE_CLIENT_ID: 'client_cli',
  PE_ISSUER: 'https://api.partner.example',
  PE_PRIVATE_KEY_FILE: keyFile,
  ...overrides,
});

describe('partner-equity token output', () => {
  it('with PARTNER_EQUITY_LOG=debug prints only the token on stdout; redacted log lines go to stderr', async () => {
    const seen = quotingTokenServer(server(), {});
    const { status, stdout, stderr } = await runCli(['token'], { env: env({ PARTNER_EQUITY_LOG: 'debug' }) });
    expect(status).toBe(0);
    expect(seen.accessTokens).toHaveLength(1);
    expect(stdout).toBe(`${seen.accessTokens[0]}\n`);
    expect(stderr).toMatch(/^partner-equity debug: POST \/v1\/oauth2\/tokens → 201 \(attempt 1, \d+ms\) \{/m);
    const exposure = new Exposure();
    exposure.add('stderr', stderr);
    expect(exposure.leaks(seen.all())).toEqual([]);
    expect(stderr).toContain('[REDACTED]');
  });

  it('an assertion quoted back in a 400 stays out of the one-line error on stderr', async () => {
    const seen = quotingTokenServer(server(), {
      '/v1/oauth2/tokens': [
        ({ form }) => ({
          status: 400,
          body: { code: 'invalid_grant', detail: `assertion ${form.get('assertion')} rejected` },
        }),
      ],
    });
    const { status, stdout, stderr } = await runCli(['token'], { env: env() });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'partner-equity token: POST /v1/oauth2/tokens → 400: assertion [REDACTED] rejected [code invalid_grant]\n',
    );
    const exposure = new Exposure();
    exposure.add('stderr', stderr);
    expect(seen.assertions).toHaveLength(1);
    expect(exposure.leaks(seen.all())).toEqual([]);
  });

  it('refuses a plain-http base URL to another host, naming --allow-insecure-http, before sending anything', async () => {
    const { status, stdout, stderr } = await runCli(['token'], {
      env: env({ PE_BASE_URL: 'http://partner-equity.invalid' }),
    });
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^partner-equity token: .*cleartext.*--allow-insecure-http/);
    expect(server().requests).toHaveLength(0);
  });
});
