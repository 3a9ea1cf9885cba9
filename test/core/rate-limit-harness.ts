import { type ClientOptions, MemoryTokenStore, PartnerEquity } from '../../src/index.js';
import { FakePartnerEquity, type FakePartnerEquityOptions } from '../../src/testing/index.js';
import { memoryLogger } from '../helpers/memory-logger.js';

/**
 * A fake with a per-client rate limit, and clients on its manual clock whose requests are counted until
 * their whole responses are read: `drive` moves the clock only while nothing is on the wire, so the time a
 * batch takes is the fake clock's, whatever the machine's load. The clients use the fetch transport so that
 * a response is counted until its body is in hand (and the SDK then reads it without waiting on I/O).
 * Every client shares one token, obtained before anything is timed: signing an assertion is work the
 * harness cannot see, and moving the clock during it would age the assertion.
 */
export async function limitedFake(options: FakePartnerEquityOptions = { rateLimit: '10/s' }) {
  const fake = new FakePartnerEquity(options);
  await fake.listen();
  const partner = await fake.createPartner();
  const counter = { inFlight: 0 };
  const counted: typeof fetch = async (input, init) => {
    counter.inFlight += 1;
    try {
      const response = await fetch(input, init);
      const body = await response.arrayBuffer();
      return new Response(body, { status: response.status, headers: response.headers });
    } finally {
      counter.inFlight -= 1;
    }
  };
  const busy: (() => number)[] = [() => counter.inFlight];

  const tokenStore = new MemoryTokenStore();
  const warm = new PartnerEquity({
    ...partner,
    clock: fake.clock,
    fetch: counted,
    tokenStore,
    rateLimit: false,
  });
  await warm.oauth.info();
  // A fresh window of the fake's limit for the test.
  await fake.clock.advance(1000);
  const warmedUp = fake.requests.length;

  return {
    fake,
    partner,
    counter,
    /** A client of the partner on the fake's clock (pass `clientId` etc. to change it). */
    client(extra: Partial<ClientOptions> = {}) {
      return new PartnerEquity({
        ...partner,
        clock: fake.clock,
        logger: memoryLogger(),
        fetch: counted,
        tokenStore,
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
    /** Requests to `path` (after the warm-up) the fake answered 429, and those it answered 2xx. */
    statuses(path: RegExp) {
      const seen = fake.requests.slice(warmedUp).filter((request) => path.test(request.path));
      return {
        limited: seen.filter((request) => request.status === 429).length,
        ok: seen.filter((request) => request.status >= 200 && request.status < 300).length,
      };
    },
    async close(): Promise<void> {
      await fake.close();
    },
  };
}

export type LimitedFake = Awaited<ReturnType<typeof limitedFake>>;
