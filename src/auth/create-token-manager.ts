import type { ClientOptions } from '../core/client-options.js';
import type { Requester } from '../core/request/requester.js';
import { importPrivateKey } from './import-private-key.js';
import { requesterTokenEndpoint } from './requester-token-endpoint.js';
import { TokenManager } from './token-manager.js';

/**
 * The client's token manager, built from its validated options: the private key is imported (or refused,
 * with an `InputValidationError` naming `privateKey`) here, once, when the client is built. Token requests
 * ride on `requester` (the token route takes no bearer token) with the client's clock, logger and retry
 * settings, feeding the client's secret registry. `undefined` when no credentials were given (public routes
 * only).
 */
export function createTokenManager(options: ClientOptions, requester: Requester): TokenManager | undefined {
  const { clientId, issuer, privateKey, signer, keyId, baseUrl, assertionAlgorithm } = options;
  if (clientId === undefined || issuer === undefined) return undefined;
  if (signer === undefined && privateKey === undefined) return undefined;
  const { clock, logger, maxRetries, retry, secrets, tracing } = requester.config;
  return new TokenManager({
    identity: { issuer, clientId, audience: baseUrl, keyId, algorithm: assertionAlgorithm },
    sign: signer ?? importPrivateKey(privateKey),
    endpoint: requesterTokenEndpoint(requester),
    clock,
    logger,
    maxRetries,
    retry,
    secrets,
    tracing,
    store: options.tokenStore,
  });
}
