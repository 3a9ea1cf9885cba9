import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliResult, runCli } from '../cli/cli-process.js';
import type { Exposure, Secret } from './exposure.js';
import type { QuotingProxy } from './quoting-proxy.js';

/** What the CLI runs showed, for the scan and for checks on stdout. */
export interface CliRuns {
  /** `partner-equity token` at debug level, answered with {@link CliRuns.issued}. */
  ok: CliResult;
  issued: { accessToken: string; refreshToken: string };
  /** Secrets the CLI was given or handed back (the scan adds the assertions from the proxy). */
  secrets: Secret[];
}

/**
 * `partner-equity token` with `PARTNER_EQUITY_LOG=debug` as a partner runs it (a separate process, the
 * partner's private key in a 0600 file), against the quoting proxy acting as the token endpoint: a
 * normal answer, a 400 quoting the assertion, and a token that cannot go in a header. Its stderr — and its
 * stdout apart from the one token it exists to print — join the whole-suite scan.
 */
export async function runCliScenarios(
  quoting: QuotingProxy,
  exposure: Exposure,
  credentials: { clientId: string; issuer: string; privateKey: string },
): Promise<CliRuns> {
  const dir = await mkdtemp(join(tmpdir(), 'pe-hygiene-cli-'));
  try {
    const keyFile = join(dir, 'key.pem');
    await writeFile(keyFile, credentials.privateKey, { mode: 0o600 });
    const env = {
      PE_BASE_URL: quoting.origin,
      PE_CLIENT_ID: credentials.clientId,
      PE_ISSUER: credentials.issuer,
      PE_PRIVATE_KEY_FILE: keyFile,
      PARTNER_EQUITY_LOG: 'debug',
    };
    const tokens = '/v1/oauth2/tokens';
    const issued = {
      accessToken: `pe_at_cli_${randomBytes(18).toString('hex')}`,
      refreshToken: `pe_rt_cli_${randomBytes(18).toString('hex')}`,
    };
    quoting.arm(tokens, () => ({
      status: 201,
      headers: { 'set-cookie': `sid=${issued.accessToken}` },
      body: JSON.stringify({ ...issued, tokenType: 'Bearer', expiresIn: 3600 }),
    }));
    const ok = await runCli(['token'], { env });
    exposure.add('cli token (debug) stderr', ok.stderr);
    exposure.add('cli token (debug) stdout without the token', ok.stdout.replace(issued.accessToken, ''));

    quoting.arm(tokens, ({ form }) => ({
      status: 400,
      body: JSON.stringify({ code: 'invalid_grant', detail: `assertion ${form.get('assertion')} rejected` }),
    }));
    const refused = await runCli(['token'], { env });
    exposure.add('cli token (assertion quoted in a 400) stderr', refused.stderr);
    exposure.add('cli token (assertion quoted in a 400) stdout', refused.stdout);

    const injected = `pe_at_cli_injected_${randomBytes(12).toString('hex')}`;
    quoting.arm(tokens, () => ({
      status: 201,
      body: JSON.stringify({ accessToken: `${injected}\r\nx-injected: 1`, tokenType: 'Bearer' }),
    }));
    const bad = await runCli(['token'], { env });
    exposure.add('cli token (header-unsafe token) stderr', bad.stderr);
    exposure.add('cli token (header-unsafe token) stdout', bad.stdout);

    return {
      ok,
      issued,
      secrets: [
        { kind: 'access token (cli)', value: issued.accessToken },
        { kind: 'refresh token (cli)', value: issued.refreshToken },
        { kind: 'access token (cli, refused)', value: injected },
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
