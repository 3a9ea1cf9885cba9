import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { RedisWebhookIdStore, type RedisWebhookIdStoreOptions } from '../../src/redis/index.js';
import {
  createNodeHandler,
  signWebhook,
  Webhook,
  type WebhookErrorContext,
  WebhookReceiver,
} from '../../src/webhooks/index.node.js';
import { type ClientLibrary, connectClient, type TestClient } from './clients.js';

export const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/** One delivery: the bytes and headers the service would send, every time it sends it. */
export interface Delivery {
  id: string;
  body: string;
  headers: Record<string, string>;
}

/** What the partner's handlers did, across every receiver. */
export interface HandlerLog {
  /** Runs per id, failures included. */
  runs: Map<string, number>;
  /** Successful runs per id. */
  successes: Map<string, number>;
}

export interface PoolOptions {
  redisUrl: string;
  size: number;
  /** The first run of every id throws (the handler fails once). */
  failFirstRun?: boolean;
  /** Awaited inside the handler before it succeeds: a test holds a handler mid-run with it. */
  gate?: (id: string) => Promise<void> | undefined;
  store?: Omit<RedisWebhookIdStoreOptions, 'client'>;
}

interface Receiver {
  url: string;
  server: Server;
  redis: TestClient;
}

/**
 * `size` webhook receivers behind real HTTP servers, each with its own Redis connection and
 * `RedisWebhookIdStore` (half node-redis, half ioredis), and one handler log.
 */
export async function startPool(options: PoolOptions) {
  const log: HandlerLog = { runs: new Map(), successes: new Map() };
  const storeErrors: WebhookErrorContext['stage'][] = [];
  const receivers: Receiver[] = [];
  for (let index = 0; index < options.size; index++) {
    const library: ClientLibrary = index % 2 === 0 ? 'redis' : 'ioredis';
    const redis = await connectClient(library, options.redisUrl);
    const receiver = new WebhookReceiver(new Webhook({ secret: SECRET }), {
      idStore: new RedisWebhookIdStore({ client: redis.client, ...options.store }),
    })
      .onAny(async (event) => {
        const id = event.webhookId;
        const run = (log.runs.get(id) ?? 0) + 1;
        log.runs.set(id, run);
        // Yield to the event loop, as a real handler doing I/O would: the duplicate is in flight meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
        await options.gate?.(id);
        if (options.failFirstRun === true && run === 1) throw new Error('handler failed once');
        log.successes.set(id, (log.successes.get(id) ?? 0) + 1);
      })
      .onError((_, { stage }) => {
        if (stage === 'store') storeErrors.push(stage);
      });
    const server = createServer(createNodeHandler(receiver));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receivers.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server, redis });
  }
  const agent = new Agent({ connections: 32 });

  /** Sends `delivery` to receiver `index`; resolves the status (0 when the connection failed). */
  async function send(delivery: Delivery, index: number): Promise<number> {
    const target = receivers[index % receivers.length] as Receiver;
    try {
      const response = await request(target.url, {
        method: 'POST',
        headers: { ...delivery.headers, 'content-type': 'application/json' },
        body: delivery.body,
        dispatcher: agent,
      });
      await response.body.dump();
      return response.statusCode;
    } catch {
      return 0;
    }
  }

  return {
    log,
    storeErrors,
    receivers,
    send,
    async close(): Promise<void> {
      await agent.close();
      await Promise.all(
        receivers.map(async ({ server, redis }) => {
          await new Promise((resolve) => server.close(resolve));
          await redis.close();
        }),
      );
    },
  };
}

export type Pool = Awaited<ReturnType<typeof startPool>>;

/** `count` signed deliveries with ids `<prefix>_<n>`, stamped now. */
export async function makeDeliveries(prefix: string, count: number): Promise<Delivery[]> {
  const timestamp = Math.floor(Date.now() / 1000);
  return Promise.all(
    Array.from({ length: count }, async (_, n) => {
      const id = `${prefix}_${n}`;
      const body = JSON.stringify({
        type: 'partner_test.delivered',
        timestamp: new Date(timestamp * 1000).toISOString(),
        data: { n },
      });
      return { id, body, headers: await signWebhook({ secret: SECRET, id, timestamp, payload: body }) };
    }),
  );
}

/**
 * The service's side: each delivery is sent twice at the same moment, to two different receivers (a
 * duplicate racing the original), in batches of `batch`. Every copy not acknowledged with a 2xx is sent
 * again (to another receiver) in later rounds, as the service's retry schedule would, until all are.
 * Resolves every status seen, per round.
 */
export async function deliverTwice(
  pool: Pool,
  deliveries: readonly Delivery[],
  options: { batch?: number; maxRounds?: number; beforeRound?: (round: number) => Promise<void> } = {},
) {
  const size = pool.receivers.length;
  const batch = options.batch ?? 100;
  let pending = deliveries.flatMap((delivery, n) => [
    { delivery, target: (2 * n) % size },
    { delivery, target: (2 * n + 1) % size },
  ]);
  const rounds: number[][] = [];
  for (let round = 0; pending.length > 0; round++) {
    if (round >= (options.maxRounds ?? 10)) throw new Error(`${pending.length} copies never acknowledged`);
    await options.beforeRound?.(round);
    const statuses: number[] = [];
    const failed: typeof pending = [];
    for (let start = 0; start < pending.length; start += 2 * batch) {
      const slice = pending.slice(start, start + 2 * batch);
      const answers = await Promise.all(slice.map((copy) => pool.send(copy.delivery, copy.target)));
      answers.forEach((status, index) => {
        statuses.push(status);
        const copy = slice[index] as (typeof slice)[number];
        if (status < 200 || status > 299) failed.push({ delivery: copy.delivery, target: copy.target + 3 });
      });
    }
    rounds.push(statuses);
    pending = failed;
  }
  return rounds;
}

/** How many times each status occurs. */
export function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
