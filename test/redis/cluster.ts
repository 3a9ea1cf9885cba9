import { randomBytes } from 'node:crypto';
import { PartnerEquity } from '../../src/index.js';
import { RedisTokenStore, type RedisTokenStoreOptions } from '../../src/redis/index.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { type ClientLibrary, connectClient, type TestClient } from './clients.js';

/** One instance of a partner's service: its own Redis connection, token store and SDK client. */
export interface Instance {
  redis: TestClient;
  store: RedisTokenStore;
  sdk: PartnerEquity;
  logger: ReturnType<typeof memoryLogger>;
}

export interface ClusterOptions {
  /** Where the instances' Redis clients connect (the server, or a proxy in front of it). */
  redisUrl: string;
  size: number;
  /** Access token lifetime at the fake, in seconds. @default 3600 */
  accessTokenTtlSeconds?: number;
  store?: Omit<RedisTokenStoreOptions, 'client'>;
}

/**
 * `size` instances of one partner sharing one Redis and one fake API on the fake's manual clock; half use
 * node-redis, half ioredis. Every store encrypts with one shared key.
 */
export async function startCluster(options: ClusterOptions) {
  const fake = new FakePartnerEquity({ accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600 });
  await fake.listen();
  const partner = await fake.createPartner();
  const encryptionKey = randomBytes(32);
  const instances: Instance[] = [];
  for (let index = 0; index < options.size; index++) {
    const library: ClientLibrary = index % 2 === 0 ? 'redis' : 'ioredis';
    const redis = await connectClient(library, options.redisUrl);
    const store = new RedisTokenStore({ client: redis.client, encryptionKey, ...options.store });
    const logger = memoryLogger();
    const sdk = new PartnerEquity({
      ...partner,
      clock: fake.clock,
      tokenStore: store,
      logger,
      logLevel: 'info',
    });
    instances.push({ redis, store, sdk, logger });
  }
  const failures: unknown[] = [];
  // A connection of the test's own, to see whether a renewal is in flight (someone holds a lease).
  const probe = await connectClient('redis', options.redisUrl);

  return {
    fake,
    instances,
    /** Errors any instance's caller saw. */
    failures,
    /** Every instance makes one bearer call, all at once; failures are kept, not thrown. */
    async callAll(): Promise<void> {
      await Promise.all(
        instances.map((instance) =>
          instance.sdk.oauth.info().then(
            () => undefined,
            (error: unknown) => {
              failures.push(error);
            },
          ),
        ),
      );
    },
    /**
     * Resolves once no renewal is in flight: no lease held over several round trips to Redis. Moving the
     * manual clock while a token request is on the wire would make its `Date` header look hours old.
     */
    async settle(): Promise<void> {
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((resolve) => setImmediate(resolve));
        const leases = (await probe.command('KEYS', '*:lease')) as string[];
        quiet = leases.length === 0 ? quiet + 1 : 0;
      }
    },
    /** Moves the shared clock on and lets every instance call, `steps` times. */
    async run(steps: number, stepMs: number, between?: (step: number) => Promise<void>): Promise<void> {
      for (let step = 0; step < steps; step++) {
        await fake.clock.advance(stepMs);
        await this.callAll();
        await this.settle();
        await between?.(step);
      }
    },
    /** What the fake saw at its token endpoint. */
    tokenStats() {
      const granted = fake.tokenRequests.filter((request) => request.status === 201);
      const presented = fake.tokenRequests.flatMap((request) =>
        request.refreshToken === undefined ? [] : [request.refreshToken],
      );
      return {
        exchanges: granted.length,
        assertionGrants: granted.filter((request) => request.grantType !== 'refresh_token').length,
        refreshGrants: granted.filter((request) => request.grantType === 'refresh_token').length,
        refreshPresented: presented.length,
        refreshPresentedTwice: presented.length - new Set(presented).size,
      };
    },
    /** Bearer calls the fake refused with 401 (each was retried inside the SDK). */
    apiUnauthorized(): number {
      return fake.requests.filter((request) => request.path === '/v1/oauth2/info' && request.status === 401)
        .length;
    },
    async close(): Promise<void> {
      await Promise.all(
        instances.map(async ({ sdk, redis }) => {
          await sdk.close();
          await redis.close();
        }),
      );
      await probe.close();
      await fake.close();
    },
  };
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;
