import { randomBytes } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
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
  /** Where the test looks for leases: the server itself. @default redisUrl */
  serverUrl?: string;
  size: number;
  /** Access token lifetime at the fake, in seconds. @default 3600 */
  accessTokenTtlSeconds?: number;
  store?: Omit<RedisTokenStoreOptions, 'client'>;
}

/**
 * An undici interceptor that counts requests until their response has ended (or failed), so a test can
 * wait for background token renewals before it moves the manual clock on.
 */
function countInFlight(counter: { inFlight: number }) {
  return (dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch =>
    (options, handler) => {
      counter.inFlight += 1;
      let ended = false;
      const end = () => {
        if (!ended) counter.inFlight -= 1;
        ended = true;
      };
      return dispatch(options, {
        onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
        onRequestUpgrade: (controller, status, headers, socket) =>
          handler.onRequestUpgrade?.(controller, status, headers, socket),
        onResponseStart: (controller, status, headers, text) =>
          handler.onResponseStart?.(controller, status, headers, text),
        onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
        onResponseEnd: (controller, trailers) => {
          handler.onResponseEnd?.(controller, trailers);
          end();
        },
        onResponseError: (controller, error) => {
          handler.onResponseError?.(controller, error);
          end();
        },
      });
    };
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
  const counter = { inFlight: 0 };
  const agents: Agent[] = [];
  const instances: Instance[] = [];
  for (let index = 0; index < options.size; index++) {
    const library: ClientLibrary = index % 2 === 0 ? 'redis' : 'ioredis';
    const redis = await connectClient(library, options.redisUrl);
    const store = new RedisTokenStore({ client: redis.client, encryptionKey, ...options.store });
    const logger = memoryLogger();
    const agent = new Agent({ connections: 8 });
    agents.push(agent);
    const sdk = new PartnerEquity({
      ...partner,
      clock: fake.clock,
      tokenStore: store,
      logger,
      logLevel: 'info',
      dispatcher: agent.compose(countInFlight(counter)),
    });
    instances.push({ redis, store, sdk, logger });
  }
  const failures: unknown[] = [];
  // A connection of the test's own, to see whether a renewal is in flight (someone holds a lease).
  const probe = await connectClient('redis', options.serverUrl ?? options.redisUrl);

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
     * Resolves once no renewal is in flight: no request on the wire and no lease held, over several turns
     * and round trips to Redis. Moving the manual clock while a token request is on the wire would make the
     * assertion it carries look minutes old to the fake.
     */
    async settle(): Promise<void> {
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((resolve) => setImmediate(resolve));
        const leases = (await probe.command('KEYS', '*:lease').catch(() => [])) as string[];
        quiet = leases.length === 0 && counter.inFlight === 0 ? quiet + 1 : 0;
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
      await Promise.all(agents.map((agent) => agent.close()));
      await fake.close();
    },
  };
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;
