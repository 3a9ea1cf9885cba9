import { randomBytes } from 'node:crypto';
import type { Reply, TestServer } from '../helpers/test-server.js';
import type { Secret } from './exposure.js';
import { jwtSignature } from './exposure.js';

/** The secrets a {@link quotingTokenServer} saw or issued, for an exposure scan. */
export interface QuotedSecrets {
  readonly assertions: string[];
  readonly refreshTokensPresented: string[];
  readonly accessTokens: string[];
  readonly refreshTokens: string[];
  /** Everything above as {@link Secret}s (an assertion by its signature: header and claims are not secret). */
  all(): Secret[];
}

/** What the next requests to a path get: a status and a body built from what the client sent. */
export type QuoteRule = (sent: { form: URLSearchParams; bearer: string | undefined }) => Reply;

/**
 * Turns a test server into a token endpoint that issues opaque tokens (`pe_at_…`, `pe_rt_…`: no JWT or
 * other recognisable shape, so only redaction by value can catch them) and, for paths given a rule, answers
 * as a careless server would: quoting back the assertion, refresh token or bearer token it refuses.
 * Other paths answer 200 `{ clientId }`.
 */
export function quotingTokenServer(
  server: TestServer,
  rules: Record<string, (QuoteRule | null)[]>,
): QuotedSecrets {
  const secrets = {
    assertions: [] as string[],
    refreshTokensPresented: [] as string[],
    accessTokens: [] as string[],
    refreshTokens: [] as string[],
  };
  server.fallback((request) => {
    const form = new URLSearchParams(request.text);
    const authorization = request.headers['authorization'];
    const bearer = typeof authorization === 'string' ? authorization.replace(/^Bearer /, '') : undefined;
    const assertion = form.get('assertion');
    const refresh = form.get('refresh_token');
    if (assertion !== null) secrets.assertions.push(assertion);
    if (refresh !== null) secrets.refreshTokensPresented.push(refresh);
    // One rule per request to its path, in order; `null` (or none left) answers normally.
    const rule = rules[request.path]?.shift();
    if (rule !== undefined && rule !== null) return rule({ form, bearer });
    if (request.path === '/v1/oauth2/tokens') {
      const accessToken = `pe_at_${randomBytes(18).toString('hex')}`;
      const refreshToken = `pe_rt_${randomBytes(18).toString('hex')}`;
      secrets.accessTokens.push(accessToken);
      secrets.refreshTokens.push(refreshToken);
      return {
        status: 201,
        body: {
          accessToken,
          refreshToken,
          tokenType: 'Bearer',
          expiresIn: 3600,
          refreshExpiresIn: 2_592_000,
        },
      };
    }
    return { status: 200, body: { clientId: 'client_quoted' } };
  });
  return {
    ...secrets,
    all: () => [
      ...secrets.assertions.map((value) => ({ kind: 'assertion', value: jwtSignature(value) })),
      ...secrets.assertions.map((value) => ({ kind: 'assertion (whole)', value })),
      ...[...secrets.refreshTokensPresented, ...secrets.refreshTokens].map((value) => ({
        kind: 'refresh token',
        value,
      })),
      ...secrets.accessTokens.map((value) => ({ kind: 'access token', value })),
    ],
  };
}
