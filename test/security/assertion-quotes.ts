// Security review of issue 36, findings 4 and 5: a token endpoint that quotes the assertion it refuses
// URL-encoded after `assertion%3D` (a JWT right after a letter or digit), or in separate parts. Shared by
// the test with both redaction mechanisms and the one with the by-value registry switched off.
import { generateKeyPairSync } from 'node:crypto';
import { PartnerEquity } from '../../src/client.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import type { TestServer } from '../helpers/test-server.js';
import { Exposure } from './exposure.js';
import { quotingTokenServer } from './quoting-server.js';

const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/** How the refusal quotes the assertion it was sent. */
export const QUOTES = {
  'URL-encoded after assertion%3D': (assertion: string) =>
    `could not parse grant_type%3Durn%253Aietf%253Aparams%253Aoauth%253Agrant-type%253Ajwt-bearer%26assertion%3D${assertion}`,
  'in separate parts': (assertion: string) => {
    const [header, claims, signature] = assertion.split('.');
    return `bad signature ${signature} over header ${header} and claims ${claims}`;
  },
  // Security review of issue 46: cut pieces of the signature passed redaction.
  'as a middle cut of its signature': (assertion: string) =>
    `signature mismatch near ${assertion.split('.')[2]?.slice(20, 60)}`,
  'with its signature in standard base64': (assertion: string) => {
    const signature = assertion.split('.')[2] ?? '';
    return `bad signature ${signature.replace(/-/g, '+').replace(/_/g, '/')}==`;
  },
  'truncated with …': (assertion: string) =>
    `could not verify ${assertion.slice(0, assertion.lastIndexOf('.') + 31)}…`,
} as const;

/**
 * A client at debug level against `server` answering its token request with a 400 that quotes the
 * assertion as `quote` does (in `detail` and `input`): where the assertion shows, whole or as any
 * 16-character fragment of its signature, in the error (message, String, stack, inspect, JSON) and the log.
 */
export async function leaksOfQuotedAssertion(
  server: TestServer,
  quote: (assertion: string) => string,
): Promise<{ leaks: string[]; assertions: number; message: string }> {
  const seen = quotingTokenServer(server, {
    '/v1/oauth2/tokens': [
      ({ form }) => {
        const text = quote(form.get('assertion') ?? '');
        return { status: 400, body: { code: 'invalid_grant', detail: text, input: text } };
      },
    ],
  });
  const logger = memoryLogger();
  const client = new PartnerEquity({
    baseUrl: server.url,
    clientId: 'client_quoted',
    issuer: 'https://api.partner.example',
    privateKey: pem,
    maxRetries: 0,
    logger,
    logLevel: 'debug',
  });
  try {
    const error = await client.oauth.info().catch((caught: unknown) => caught);
    const exposure = new Exposure();
    exposure.addError('error', error);
    exposure.add('log', logger.text());
    return {
      leaks: exposure.leaks(seen.all()),
      assertions: seen.assertions.length,
      message: (error as Error).message,
    };
  } finally {
    await client.close();
  }
}
