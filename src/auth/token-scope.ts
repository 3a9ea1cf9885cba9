import { createHash } from 'node:crypto';
import type { AssertionIdentity } from './assertion.js';

/**
 * The `TokenStore` scope of a client at an environment: a hash of `baseUrl` (the `aud`) and `clientId`,
 * so clients and environments never share tokens, and a store's keys do not name either.
 */
export function tokenScope(identity: Pick<AssertionIdentity, 'audience' | 'clientId'>): string {
  return createHash('sha256')
    .update(`partner-equity token scope\n${identity.audience}\n${identity.clientId}`)
    .digest('base64url')
    .slice(0, 22);
}
