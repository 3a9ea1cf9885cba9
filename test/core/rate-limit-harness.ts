import { Agent } from 'undici';
import { type ClientOptions, PartnerEquity } from '../../src/index.js';
import { FakePartnerEquity, type FakePartnerEquityOptions } from '../../src/testing/index.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { countInFlight } from '../redis/cluster.js';

/**
 * A fake with a per-client rate limit, and clients on its manual clock whose requests are counted until
 * their responses end: `drive` moves the clock only while nothing is on the wire, so the time a batch takes
 * is the fake clock's, whatever the machine's load.
 */
export async function limitedFake(options: FakePartnerEquityOptions = { rateLimit: '10/s' }) {
  const fake = new FakePartnerEquity(options);
  await fake.listen();
  const partner = await fake.createPartner();
  const counter = { inFlight: 0 };
  const agents: Agent[] = [];
  const busy: (() => number)[] = [() => counter.inFlight];

  return {
    fake,
    partner,
    counter,
    /** A client of the partner on the fake's clock (pass `clientId` etc. to change it). */
    client(extra: Partial<ClientOptions> = {}) {
      const agent = new Agent({ connections: 64 });
      agents.push(agent);
      return new PartnerEquity({
        ...partner,
        clock: fake.clock,
        logger: memoryLogger(),
        dispatcher: agent.compose(countInFlight(counter)),
        ...extra,
      });
    },
    /** Counts more in-flight work (a store's round trips) as "not quiet". */
    alsoBusy(count: () => number) {
      busy.push(count);
    },
    /** Resolves once nothing has been in flight for a few turns of the event loop. */
    async settle(): Promise<void> {
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((resolve) => setImmediate(resolve));
        quiet = busy.every((count) => count() === 0) ? quiet + 1 : 0;
      }
    },
    /** Runs `work` to the end, moving the fake clock `stepMs` at a time while all is quiet. */
    async drive<T>(work: Promise<T>, stepMs = 10): Promise<{ value: T; elapsedMs: number }> {
      const start = fake.clock.now();
      let done = false;
      const finished = work.finally(() => {
        done = true;
      });
      finished.catch(() => undefined);
      while (!done) {
        await this.settle();
        if (!done) await fake.clock.advance(stepMs);
      }
      const elapsedMs = fake.clock.now() - start;
      return { value: await finished, elapsedMs };
    },
    /** Bearer requests the fake answered 429, and those it answered 2xx. */
    statuses(path: RegExp) {
      const seen = fake.requests.filter((request) => path.test(request.path));
      return {
        limited: seen.filter((request) => request.status === 429).length,
        ok: seen.filter((request) => request.status >= 200 && request.status < 300).length,
      };
    },
    async close(): Promise<void> {
      await Promise.all(agents.map((agent) => agent.close()));
      await fake.close();
    },
  };
}

export type LimitedFake = Awaited<ReturnType<typeof limitedFake>>;
