import { generateKeyPairSync } from 'node:crypto';
import { Agent } from 'undici';
import { z } from 'zod';
import { importPrivateKey } from '../../src/auth/import-private-key.js';
import { requesterTokenEndpoint } from '../../src/auth/requester-token-endpoint.js';
import type { Signer } from '../../src/auth/signer.js';
import { TokenManager } from '../../src/auth/token-manager.js';
import type { TokenStore } from '../../src/auth/token-store.js';
import type { Logger } from '../../src/core/logging/logger.js';
import type { RequestOptions } from '../../src/core/request/request-options.js';
import { Requester } from '../../src/core/request/requester.js';
import { responseValidation } from '../../src/core/request/response-validation.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { undiciTransport } from '../../src/core/transport/transport.js';
import { ManualClock } from './manual-clock.js';
import { TokenServer } from './token-server.js';

export const CLIENT_ID = 'client_auth_tests';
export const ISSUER = 'https://api.partner.example';

/** A logger that keeps every line, to prove what is (and is not) logged. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export interface HarnessOptions {
  expiresIn?: number;
  /** Renewal jitter source. @default () => 0.5 (renew at exactly 50%) */
  random?: () => number;
  signer?: (privateKey: ReturnType<typeof generateKeyPairSync>['privateKey']) => Signer;
  algorithm?: 'EdDSA' | 'Ed25519';
  keyId?: string;
  /** A shared token store for the token manager. */
  store?: TokenStore;
}

/**
 * The SDK's real pieces — undici transport, request pipeline, token manager with an imported key — against a
 * {@link TokenServer} on a loopback port, sharing one {@link ManualClock}.
 */
export async function startHarness(options: HarnessOptions = {}) {
  const clock = new ManualClock();
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const server = await TokenServer.start({
    clock,
    clientId: CLIENT_ID,
    issuer: ISSUER,
    publicKey,
    algorithms: [options.algorithm ?? 'EdDSA'],
    ...(options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn }),
  });
  const logger = recordingLogger();
  // A bounded pool, like a partner's production setup; 1,000 concurrent calls queue on 64 sockets.
  const dispatcher = new Agent({ connections: 64 });
  const transport = undiciTransport({ dispatcher });
  const requester = new Requester({
    baseUrl: new URL(server.baseUrl),
    transport,
    clock,
    logger,
    validation: responseValidation('strict', logger),
    maxRetries: 2,
    timeout: 5000,
    retry: { ...DEFAULT_RETRY, random: () => 0.5 },
    defaultHeaders: {},
  });
  // Counts token requests in flight, so a test can let a background renewal finish before moving time on.
  const endpoint = requesterTokenEndpoint(requester);
  let inFlight = 0;
  const tokens = new TokenManager({
    identity: {
      issuer: ISSUER,
      clientId: CLIENT_ID,
      audience: server.baseUrl,
      keyId: options.keyId,
      algorithm: options.algorithm,
    },
    sign: options.signer === undefined ? importPrivateKey(privateKey) : options.signer(privateKey),
    endpoint: async (form, signal) => {
      inFlight += 1;
      try {
        return await endpoint(form, signal);
      } finally {
        inFlight -= 1;
      }
    },
    clock,
    store: options.store,
    random: options.random ?? (() => 0.5),
    retry: { ...DEFAULT_RETRY, random: () => 0.5 },
    logger,
  });
  const api = requester.with({ authenticator: tokens });
  /** A bearer-route call through the real pipeline. */
  const info = (requestOptions?: RequestOptions) =>
    api.request({
      method: 'GET',
      path: '/v1/oauth2/info',
      response: z.looseObject({}),
      options: requestOptions,
    });
  return {
    clock,
    server,
    tokens,
    logger,
    info,
    /**
     * Resolves once no token request is in flight (real I/O on the loopback socket; no simulated time
     * passes). Exact for a renewal that is one request (a refresh grant); between the attempts of a retried
     * grant it may read idle, so tests of retries wait for what the server saw instead.
     */
    async idle() {
      while (inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
    },
    async close() {
      await dispatcher.close();
      await server.close();
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
