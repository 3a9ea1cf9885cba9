import { connectClient } from '../../test/redis/clients.js';
import { REDIS_SERVER_BIN, RedisServer } from '../../test/redis/redis-server.js';
import { distUrl, importSdk, importTesting } from '../lib/build-sdk.js';
import { atMost, type BenchContext, exactly, reported, type ScenarioResult } from '../lib/result.js';

const SCENARIO = '11 under a limit';
const INFO = '/v1/oauth2/info';
/** The service's limit in this scenario, and the allowance over each batch's floor. */
const LIMIT = '10/s';
const SLACK = 1.5;

type Sdk = Awaited<ReturnType<typeof importSdk>>;
type Testing = Awaited<ReturnType<typeof importTesting>>;

/**
 * Scenario 11: the SDK against a fake that enforces 10 requests/s per client (429 with `Retry-After` and
 * the `RateLimit` headers), in real time: the fake's clock follows the wall clock, the clients use the
 * system clock. Today's behaviour (`rateLimit: false`: 429s left to the retries) beside the new one:
 * - one client, 40 concurrent GETs (floor 3 s: 10 per second, the first 10 at once);
 * - a fleet of 8 instances x 15 concurrent reads sharing one budget through `RedisRateLimitStore` on a real
 *   redis-server (floor 11 s).
 */
export async function runUnderALimit({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const sdk = await importSdk();
  const testing = await importTesting();
  const rows = [];
  const notes: string[] = [
    `Scenario 11 runs against the in-process fake with \`rateLimit: '${LIMIT}'\` on a clock that follows the wall clock; "today" is \`rateLimit: false\` (429s retried twice, honouring Retry-After).`,
  ];
  for (const paced of [false, true]) {
    const label = paced ? 'paced' : 'today';
    const run = await batch(sdk, testing, { instances: 1, each: 40, paced });
    log(
      `  ${SCENARIO} one client ${label}: ${run.ok}/40 ok, ${run.limited} 429s, ${run.seconds.toFixed(2)} s`,
    );
    const figure = `one client, 40 GETs, ${label}`;
    if (paced && !quick) {
      rows.push(exactly(SCENARIO, `${figure}: calls that succeeded`, run.ok, 40));
      rows.push(atMost(SCENARIO, `${figure}: seconds (floor 3 s)`, run.seconds, 3 * SLACK, 's'));
    } else
      rows.push(
        reported(SCENARIO, figure, `${run.ok}/40 ok, ${run.limited} 429s, ${run.seconds.toFixed(2)} s`),
      );
  }
  if (REDIS_SERVER_BIN === undefined) {
    notes.push('Scenario 11: the fleet half was skipped: redis-server is not installed.');
    return { rows, notes };
  }
  const server = await RedisServer.start();
  try {
    for (const paced of [false, true]) {
      const label = paced ? 'RedisRateLimitStore' : 'today';
      const run = await batch(sdk, testing, {
        instances: 8,
        each: 15,
        paced,
        redisUrl: paced ? server.url : undefined,
      });
      log(`  ${SCENARIO} fleet ${label}: ${run.ok}/120 ok, ${run.limited} 429s, ${run.seconds.toFixed(2)} s`);
      const figure = `8 x 15 reads, ${label}`;
      if (paced && !quick) {
        rows.push(exactly(SCENARIO, `${figure}: calls that succeeded`, run.ok, 120));
        rows.push(atMost(SCENARIO, `${figure}: 429s the service answered`, run.limited, 12));
        rows.push(atMost(SCENARIO, `${figure}: seconds (floor 11 s)`, run.seconds, 11 * SLACK, 's'));
      } else
        rows.push(
          reported(SCENARIO, figure, `${run.ok}/120 ok, ${run.limited} 429s, ${run.seconds.toFixed(2)} s`),
        );
    }
  } finally {
    await server.stop();
  }
  return { rows, notes };
}

/** `instances` clients of one partner fire `each` reads at once; what the fake answered and how long it took. */
async function batch(
  sdk: Sdk,
  testing: Testing,
  options: { instances: number; each: number; paced: boolean; redisUrl?: string | undefined },
) {
  const clock = new testing.ManualClock(Date.now());
  const follow = setInterval(() => {
    const behind = Date.now() - clock.now();
    if (behind > 0) void clock.advance(behind);
  }, 5);
  const fake = new testing.FakePartnerEquity({ rateLimit: LIMIT, clock });
  const redis = [];
  const clients = [];
  try {
    await fake.listen();
    const partner = await fake.createPartner();
    const { RedisRateLimitStore } = (await import(
      distUrl('redis/index.js')
    )) as typeof import('../../src/redis/index.js');
    for (let index = 0; index < options.instances; index++) {
      let rateLimitStore: InstanceType<typeof RedisRateLimitStore> | undefined;
      if (options.redisUrl !== undefined) {
        const connection = await connectClient(index % 2 === 0 ? 'redis' : 'ioredis', options.redisUrl);
        redis.push(connection);
        rateLimitStore = new RedisRateLimitStore({ client: connection.client });
      }
      // 'error': a push still on its way when the bench closes Redis would warn about it.
      const client = new sdk.PartnerEquity({
        ...partner,
        rateLimit: options.paced,
        rateLimitStore,
        logLevel: 'error',
      });
      clients.push(client);
      await client.oauth.info(); // its token, outside the timing; the fake's window then starts afresh
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = fake.requests.length;
    const started = performance.now();
    const results = await Promise.allSettled(
      clients.flatMap((client) => Array.from({ length: options.each }, () => client.oauth.info())),
    );
    const seconds = (performance.now() - started) / 1000;
    const seen = fake.requests.slice(before).filter((request) => request.path === INFO);
    return {
      ok: results.filter((result) => result.status === 'fulfilled').length,
      limited: seen.filter((request) => request.status === 429).length,
      seconds,
    };
  } finally {
    clearInterval(follow);
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(redis.map((connection) => connection.close()));
    await fake.close();
  }
}
