import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { StoredTokenSet, TokenSet, TokenStore } from '../../src/auth/token-store.js';
import { type Harness, startHarness } from './harness.js';

// A shared token store that fails and recovers, in process (the Redis fault tests do the same over a real
// redis-server): what the calls get meanwhile, when the store is asked again, and how its chain comes back.

class StoreDown extends Error {
  override name = 'StoreDown';
}

/** A MemoryTokenStore that can be taken down (every call throws) or made to fail only its writes. */
class FlakyStore implements TokenStore {
  readonly #inner = new MemoryTokenStore();
  down = false;
  failWrites = false;
  /** Every call made to the store, failed or not. */
  calls = 0;
  /** The pairs written that the store kept. */
  readonly written: TokenSet[] = [];

  #enter(): void {
    this.calls += 1;
    if (this.down) throw new StoreDown('connection refused');
  }
  read(scope: string) {
    this.#enter();
    return this.#inner.read(scope);
  }
  lease(scope: string) {
    this.#enter();
    return this.#inner.lease(scope);
  }
  takeRefreshToken(scope: string, generation: number) {
    this.#enter();
    return this.#inner.takeRefreshToken(scope, generation);
  }
  write(scope: string, tokens: TokenSet, previousGeneration: number): StoredTokenSet | undefined {
    this.#enter();
    if (this.failWrites) throw new StoreDown('write timed out');
    const stored = this.#inner.write(scope, tokens, previousGeneration);
    if (stored !== undefined) this.written.push(tokens);
    return stored;
  }
}

const PROBE_MS = 15_000;
const RENEW_MS = 2100_000; // past the renewal point of a shared chain (50–55% of 3600 s)

let harness: Harness | undefined;
afterEach(async () => {
  expect(harness?.server.unexpected).toEqual([]);
  await harness?.close();
  harness = undefined;
});

/** Real I/O only, no simulated time: until the server has seen `count` token requests and answered them. */
async function tokenRequestsSeen(h: Harness, count: number): Promise<void> {
  while (h.server.tokenRequests.length < count) await new Promise((resolve) => setImmediate(resolve));
  await h.idle();
}

const grants = (h: Harness) => h.server.tokenRequests.map((r) => [r.grant, r.outcome]);
const lines = (h: Harness, level: string) =>
  h.logger.lines.filter((l) => l.startsWith(`${level} Token store`));

describe('a shared token store that fails', () => {
  it('calls are served by a chain of this process, with one warning naming the error; the store is asked again every 15 s', async () => {
    const store = new FlakyStore();
    store.down = true;
    harness = await startHarness({ store });
    const { clock, info } = harness;

    await expect(info()).resolves.toBeDefined();
    expect(grants(harness)).toEqual([['jwt', 201]]);
    expect(lines(harness, 'warn')).toEqual([
      'warn Token store unavailable; using a token chain of this process until it answers {"error":"StoreDown","message":"connection refused"}',
    ]);

    // Not asked again before 15 s have passed...
    const asked = store.calls;
    clock.advance(PROBE_MS - 1);
    await info();
    expect(store.calls).toBe(asked);
    // ...then asked once (still down: the local chain serves on, no second warning, no exchange)...
    clock.advance(1);
    await info();
    expect(store.calls).toBe(asked + 1);
    expect(lines(harness, 'warn')).toHaveLength(1);
    expect(grants(harness)).toEqual([['jwt', 201]]);
    // ...and not again for another 15 s.
    await info();
    clock.advance(PROBE_MS - 1);
    await info();
    expect(store.calls).toBe(asked + 1);
  });

  it('the warning quotes the cause redacted: a token in its message is not logged', async () => {
    const store = new FlakyStore();
    store.down = true;
    const token = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJjbGllbnQifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    store.read = () => {
      throw new StoreDown(`cannot store ${token}`);
    };
    harness = await startHarness({ store });
    await harness.info();
    expect(lines(harness, 'warn')).toEqual([
      'warn Token store unavailable; using a token chain of this process until it answers {"error":"StoreDown","message":"cannot store [REDACTED]"}',
    ]);
  });

  it("once it answers, it is handed this process's pair, no exchange: its refresh token renews the shared chain next", async () => {
    const store = new FlakyStore();
    store.down = true;
    harness = await startHarness({ store });
    const { clock, info, server } = harness;
    await info();
    const [local] = server.issued();
    expect(store.written).toEqual([]);

    store.down = false;
    clock.advance(PROBE_MS);
    await info();
    expect(grants(harness)).toEqual([['jwt', 201]]); // no exchange on the way back
    expect(lines(harness, 'info')).toEqual([
      'info Token store answers again; using the shared token chain {}',
    ]);
    expect(store.written).toHaveLength(1);
    const handed = store.written[0];
    expect(server.apiCalls.at(-1)?.token).toBe(handed?.accessToken);
    expect(handed?.refreshToken?.value).toBeDefined();

    // The renewal takes that refresh token out of the store and presents it: the chain goes on, shared.
    clock.advance(RENEW_MS);
    await info(); // served the current token; the renewal runs in the background
    await harness.idle();
    expect(grants(harness)).toEqual([
      ['jwt', 201],
      ['refresh', 201],
    ]);
    expect(server.tokenRequests[1]?.refreshToken).toBe(handed?.refreshToken?.value);
    expect(local?.grant).toBe('jwt');
  });

  it('a pair obtained but not stored (the write failed) is served as it is: no second exchange, and its refresh token is never presented', async () => {
    const store = new FlakyStore();
    store.failWrites = true;
    harness = await startHarness({ store });
    const { clock, info, server } = harness;

    await expect(info()).resolves.toBeDefined();
    expect(grants(harness)).toEqual([['jwt', 201]]);

    // The write may have landed, so its refresh token may be shared: the local chain renews by assertion.
    store.down = true;
    clock.advance(RENEW_MS);
    await info(); // served the current token; the renewal (signing an assertion first) runs in the background
    await tokenRequestsSeen(harness, 2);
    expect(grants(harness)).toEqual([
      ['jwt', 201],
      ['jwt', 201],
    ]);
    expect(server.refreshPresentations.size).toBe(0);
  });
});
