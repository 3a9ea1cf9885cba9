import type { Command } from '../command.js';
import { credentialOptions, readCredentials } from '../credentials.js';

/** `partner-equity token`: one access token for curl and other tools. */
export const token: Command = {
  path: ['token'],
  summary: 'Exchange a signed assertion for an access token and print it (for curl)',
  synopsis:
    '[--base-url <url>] [--client-id <id>] [--issuer <url>] [--private-key-file <file>] [--key-id <kid>]',
  details: [
    'Prints only the access token on stdout, so it composes:',
    '  curl -H "Authorization: Bearer $(partner-equity token)" "$PE_BASE_URL/v1/spv-requests"',
    'Each flag falls back to its environment variable (see `partner-equity mock` for a local set).',
  ].join('\n'),
  options: credentialOptions,
  async run(values, io) {
    // Loaded here, not at startup: `--help` and usage errors stay fast without the HTTP client and zod.
    const { PartnerEquity } = await import('../../client.js');
    const client = new PartnerEquity({ ...(await readCredentials(values, io)), maxRetries: 1 });
    try {
      const authenticator = client._requester.config.authenticator;
      if (authenticator === undefined) throw new Error('the client was built without credentials');
      io.stdout.write(`${await authenticator.getToken()}\n`);
      return 0;
    } finally {
      await client.close();
    }
  },
};
