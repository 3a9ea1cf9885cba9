// The spec's retry schedule (30 s, 5 min, 30 min, 2 h, 12 h) meets the receiver's timestamp tolerance.
// A sender that re-signs each attempt is accepted on every retry; one that re-sends the original signed
// bytes is refused from the third attempt on (330 s > 300 s) unless the receiver's tolerance covers the
// whole retry window. Real sockets both ways: the fake's sender POSTs to a node:http receiver.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/index.js';
import {
  FakePartnerEquity,
  type FakeWebhookOptions,
  WEBHOOK_RETRY_DELAYS_MS,
} from '../../src/testing/index.js';
import {
  createNodeHandler,
  WEBHOOK_RETRY_WINDOW_SECONDS,
  type WebhookEvent,
  WebhookReceiver,
} from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { spvBody } from '../helpers/spv-body.js';

const ATTEMPT_OFFSETS_S = [0, 30, 330, 2130, 9330, 52530];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A fake sending to a receiver whose handler fails its first `failures` runs; one event, then its retries. */
async function scenario(webhooks: FakeWebhookOptions, failures: number, toleranceSeconds?: number) {
  const fake = new FakePartnerEquity({ webhooks });
  closers.push(() => fake.close());
  await fake.listen();
  const handled: WebhookEvent[] = [];
  const logs: string[] = [];
  let runs = 0;
  // The receiver needs the secret the endpoint gets, and the endpoint needs the server's URL.
  let handle: ReturnType<typeof createNodeHandler> | undefined;
  const server: Server = createServer((req, res) => void handle?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { secret } = fake.webhooks.register({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
  });
  const webhook = new Webhook({ secret, now: () => fake.clock.now(), toleranceSeconds });
  const receiver = new WebhookReceiver(webhook, {
    now: () => fake.clock.now(),
    logger: { warn: (line) => logs.push(line), error: (line) => logs.push(line) },
  })
    .on('spv_request.created', (event) => {
      runs += 1;
      if (runs <= failures) throw new Error(`handler down (run ${runs})`);
      handled.push(event);
    })
    .onError(() => {});
  handle = createNodeHandler(receiver);
  const client = new PartnerEquity({ ...(await fake.createPartner()), clock: fake.clock });
  await client.spvRequests.create(await spvBody(client));
  await fake.idle();
  for (const delay of WEBHOOK_RETRY_DELAYS_MS) await fake.clock.advance(delay);
  const [delivery] = fake.webhooks.deliveries;
  const start = delivery!.attempts[0]!.at;
  return {
    fake,
    delivery: delivery!,
    handled,
    logs,
    runs: () => runs,
    offsets: delivery!.attempts.map((a) => (a.at - start) / 1000),
    signedOffsets: delivery!.attempts.map((a) => (a.signedAt! - start) / 1000),
    statuses: delivery!.attempts.map((a) => a.status),
  };
}

describe('retries against the receiver tolerance', () => {
  it('re-signed each attempt (the default): every retry verifies; the sixth attempt is handled once', async () => {
    const run = await scenario({}, 5);
    expect(run.offsets).toEqual(ATTEMPT_OFFSETS_S);
    expect(run.signedOffsets).toEqual(ATTEMPT_OFFSETS_S); // a fresh timestamp each time
    expect(run.statuses).toEqual([500, 500, 500, 500, 500, 204]);
    expect(run.delivery.state).toBe('delivered');
    expect(run.handled).toHaveLength(1);
    expect(run.logs).toEqual([]);
  });

  it('original bytes with the default 300 s tolerance: refused from 330 s on, dead-lettered, and the log says what to set', async () => {
    const run = await scenario({ retrySigning: 'original' }, 5);
    expect(run.offsets).toEqual(ATTEMPT_OFFSETS_S);
    expect(run.signedOffsets).toEqual([0, 0, 0, 0, 0, 0]); // the first attempt's signature, every time
    expect(run.statuses).toEqual([500, 500, 400, 400, 400, 400]);
    expect(run.delivery.state).toBe('dead-lettered');
    expect(run.fake.webhooks.deadLetters).toEqual([run.delivery]);
    expect(run.runs()).toBe(2); // the handler saw it twice (and failed); the event is lost to the receiver
    expect(run.handled).toEqual([]);
    expect(run.logs).toHaveLength(4);
    for (const [i, line] of run.logs.entries()) {
      const age = ATTEMPT_OFFSETS_S[i + 2];
      expect(line).toContain(
        `Refused an authentic webhook (timestamp_too_old): Webhook timestamp is ${age} s old`,
      );
      expect(line).toContain(`set toleranceSeconds to at least ${WEBHOOK_RETRY_WINDOW_SECONDS + 300}`);
    }
  });

  it('original bytes with toleranceSeconds covering the retry window: the last retry is handled once', async () => {
    const run = await scenario({ retrySigning: 'original' }, 5, WEBHOOK_RETRY_WINDOW_SECONDS + 300);
    expect(run.signedOffsets).toEqual([0, 0, 0, 0, 0, 0]);
    expect(run.statuses).toEqual([500, 500, 500, 500, 500, 204]);
    expect(run.delivery.state).toBe('delivered');
    expect(run.handled).toHaveLength(1);
    expect(run.logs).toEqual([]);
  });

  it('the window constant is the spec schedule the fake follows', () => {
    expect(WEBHOOK_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0) / 1000).toBe(
      WEBHOOK_RETRY_WINDOW_SECONDS,
    );
  });
});
