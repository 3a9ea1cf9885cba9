import { isCleartextToNetwork } from '../../core/transport/loopback-host.js';
import { cliSecrets } from '../cli-secrets.js';
import type { Command } from '../command.js';
import { credentialOptions, readCredentials } from '../credentials.js';
import { flag } from '../parse-options.js';
import { stderrLogger } from '../stderr-logger.js';
import { UsageError } from '../usage-error.js';

/** `partner-equity token`: one access token for curl and other tools. */
export const token: Command = {
  path: ['token'],
  summary: 'Exchange a signed assertion for an access token and print it (for curl)',
  synopsis:
    '[--base-url <url>] [--client-id <id>] [--issuer <url>] [--private-key-file <file>] [--key-id <kid>] [--allow-insecure-http]',
  details: [
    'Prints only the access token on stdout, so it composes:',
    '  curl -H "Authorization: Bearer $(partner-equity token)" "$PE_BASE_URL/v1/spv-requests"',
    'Each flag falls back to its environment variable (see `partner-equity mock` for a local set).',
    'Log lines (PARTNER_EQUITY_LOG=debug) go to stderr, redacted; stdout carries the token alone.',
  ].join('\n'),
  options: {
    ...credentialOptions,
    'allow-insecure-http': {
      type: 'boolean',
      description: 'Allow a plain http base URL to another host (the token then travels in cleartext)',
    },
  },
  async run(values, io) {
    const credentials = await readCredentials(values, io);
    const allowInsecureHttp = flag(values, 'allow-insecure-http');
    if (!allowInsecureHttp && isCleartextToNetwork(credentials.baseUrl)) {
      throw new UsageError(
        'the base URL is plain http to another host, so the token would travel in cleartext: use https, or pass --allow-insecure-http',
      );
    }
    // Loaded here, not at startup: `--help` and usage errors stay fast without the HTTP client and zod. From
    // the main entry's module, so the built command uses the built main entry instead of a copy of it.
    const [{ PartnerEquity }, { LOG_LEVEL_ENV, resolveLogLevel }] = await Promise.all([
      import('../../index.js'),
      import('../../core/logging/logger.js'),
    ]);
    const client = new PartnerEquity({
      ...credentials,
      maxRetries: 1,
      allowInsecureHttp,
      logger: stderrLogger(io.stderr),
      logLevel: resolveLogLevel(undefined, io.env[LOG_LEVEL_ENV]),
    });
    try {
      const authenticator = client._requester.config.authenticator;
      if (authenticator === undefined) throw new Error('the client was built without credentials');
      const accessToken = await authenticator.getToken();
      cliSecrets.add(accessToken);
      io.stdout.write(`${accessToken}\n`);
      return 0;
    } finally {
      await client.close();
    }
  },
};
