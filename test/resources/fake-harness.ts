import { generateKeyPairSync } from 'node:crypto';
import { afterEach } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import type { FakePartnerCredentials, FakePartnerEquityOptions } from '../../src/testing/index.js';
import { FakePartnerEquity } from '../../src/testing/index.js';

/** A fake API on a loopback port and an SDK client of one registered partner. */
export interface FakeEnv {
  fake: FakePartnerEquity;
  client: PartnerEquity;
  clientId: string;
  /** The partner's credentials as the fake issued them (the client may sign with another key: `wrongKey`). */
  credentials: FakePartnerCredentials;
  /** Requests that reached the fake for routes other than the token endpoint. */
  apiRequests(): FakePartnerEquity['requests'][number][];
}

/** Options of {@link FakeApi.start}. */
export interface StartOptions {
  fake?: FakePartnerEquityOptions;
  /** `false`: the partner is registered unprovisioned (partner endpoints answer 403). */
  provisioned?: boolean;
  /** `true`: the client signs with a key the fake does not know (every token exchange answers 401). */
  wrongKey?: boolean;
  client?: Partial<ClientOptions>;
}

/** Starts fakes and clients for a test file and closes all of them after each test. */
export interface FakeApi {
  start(options?: StartOptions): Promise<FakeEnv>;
  /** Another client of a new partner of the same fake. */
  partner(env: FakeEnv, options?: Omit<StartOptions, 'fake'>): Promise<FakeEnv>;
}

export function useFakeApi(): FakeApi {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  const partner = async (
    fake: FakePartnerEquity,
    options: Omit<StartOptions, 'fake'> = {},
  ): Promise<FakeEnv> => {
    const credentials = await fake.createPartner({ provisioned: options.provisioned ?? true });
    const privateKey = options.wrongKey
      ? generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
      : credentials.privateKey;
    const client = new PartnerEquity({
      baseUrl: credentials.baseUrl,
      clientId: credentials.clientId,
      issuer: credentials.issuer,
      privateKey,
      clock: fake.clock,
      logLevel: 'off',
      // Backoff waits of 0 ms: retries happen at once on the fake's manual clock.
      retry: { random: () => 0 },
      ...options.client,
    });
    open.push(client);
    return {
      fake,
      client,
      clientId: credentials.clientId,
      credentials,
      apiRequests: () => fake.requests.filter((request) => request.path !== '/v1/oauth2/tokens'),
    };
  };

  return {
    async start(options = {}) {
      const fake = new FakePartnerEquity(options.fake);
      open.push(fake);
      await fake.listen();
      return partner(fake, options);
    },
    partner: (env, options) => partner(env.fake, options),
  };
}
