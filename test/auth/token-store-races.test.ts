// A shared token store's harder moments, as a partner's process lives them (issue 46, the `tokens` mutation
// group's survivors): another instance renewing while this one waits, a write that loses to another
// instance's, a token at its block point, a store that fails in odd ways, and a manager with no logger.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { TokenManager } from '../../src/auth/token-manager.js';
import { tokenScope } from '../../src/auth/token-scope.js';
import type { StoredTokenSet, TokenSet, TokenStore } from '../../src/auth/token-store.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { ManualClock } from './manual-clock.js';
import { flush, manager, memoryEndpoint, signer } from './memory-token-endpoint.js';

const IDENTITY = { issuer: 'https://i.example', clientId: 'c', audience: 'https://api.example' };
const SCOPE = tokenScope(IDENTITY);
const LIFETIME = 3600_000;
const BLOCK = LIFETIME - 60_000;

/** A token set another instance obtained at `issuedAt`. */
function rival(accessToken: string, issuedAt: number): TokenSet {
  return {
    accessToken,
    issuedAt,
    expiresAt: issuedAt + LIFETIME,
    renewAt: issuedAt + LIFETIME / 2,
    blockAt: issuedAt + BLOCK,
  };
}

/** A shared store as other instances and faults make it behave. */
class ScriptedStore implements TokenStore {
  readonly inner = new MemoryTokenStore();
  whenUnavailable: 'local' | 'fail' = 'local';
  /** Thrown (or rejected with) by every call while set. */
  failure: { value: unknown } | undefined;
  /** Another instance holds the renewal lease. */
  leaseBusy = false;
  /** Called when a lease is refused. */
  onLeaseRefused: (() => void) | undefined;
  /** Another instance writes this set just before this one's next write, which then loses. */
  rivalOnWrite: TokenSet | undefined;
  /** This one's writes lose to a write that is gone again by the time it looks (the key expired). */
  loseWrites = false;
  leases = 0;

  #enter(): void {
    if (this.failure !== undefined) throw this.failure.value;
  }
  read(scope: string) {
    this.#enter();
    return this.inner.read(scope);
  }
  lease(scope: string) {
    this.#enter();
    this.leases += 1;
    if (!this.leaseBusy) return this.inner.lease(scope);
    this.onLeaseRefused?.();
    return undefined;
  }
  takeRefreshToken(scope: string, generation: number) {
    this.#enter();
    return this.inner.takeRefreshToken(scope, generation);
  }
  write(scope: string, tokens: TokenSet, previousGeneration: number): StoredTokenSet | undefined {
    this.#enter();
    if (this.loseWrites) return undefined;
    const other = this.rivalOnWrite;
    this.rivalOnWrite = undefined;
    if (other !== undefined) this.inner.write(scope, other, previousGeneration);
    return this.inner.write(scope, tokens, previousGeneration);
  }
}

const down = (store: ScriptedStore, value: unknown = new Error('connection refused')) => {
  store.failure = { value };
};

/** A configuration error as a store reports one (`RedisStoreError` with `redis_decrypt_failed`). */
function wrongKey(): Error {
  return Object.assign(new Error('Stored token unreadable: encrypted with a key that is not configured'), {
    name: 'RedisStoreError',
    code: 'redis_decrypt_failed',
    configuration: true,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('waiting for another instance', () => {
  it('while another instance renews, a token at its block point is not sent: the new one is waited for', async () => {
    const store = new ScriptedStore();
    const m = manager({}, () => 0.5, store);
    expect(await m.tokens.getToken()).toBe('at1');
    store.leaseBusy = true;
    store.onLeaseRefused = () => {
      // The other instance's renewal lands while this one waits.
      store.onLeaseRefused = undefined;
      const current = store.inner.read(SCOPE);
      store.inner.write(SCOPE, rival('at-other', m.clock.now()), current?.generation ?? 0);
    };
    m.clock.advance(BLOCK); // exactly at the block point of at1
    expect(await m.tokens.getToken()).toBe('at-other');
    expect(m.calls).toHaveLength(1);
  });

  it('looks at the store with a growing pause (up to 0.5 s), not in a tight loop', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const store = new ScriptedStore();
    store.leaseBusy = true; // another instance renews, and takes its time
    const m = manager({}, () => 0.5, store);
    const token = m.tokens.getToken();
    for (let ms = 0; ms < 2000 && store.leases <= 40; ms += 100) await vi.advanceTimersByTimeAsync(100);
    // 20 ms doubling to 500 ms, full jitter: some 10 looks in 2 s, never dozens.
    expect(store.leases).toBeGreaterThanOrEqual(3);
    expect(store.leases).toBeLessThanOrEqual(25);
    store.leaseBusy = false;
    await vi.advanceTimersByTimeAsync(600);
    expect(await token).toBe('at1');
  });

  it('a set in the store at its block point is not adopted: a new token is obtained', async () => {
    const store = new ScriptedStore();
    const m = manager({}, () => 0.5, store);
    store.inner.write(SCOPE, rival('at-blocked', m.clock.now() - BLOCK), 0);
    expect(await m.tokens.getToken()).toBe('at1');
    expect(m.calls.map((call) => call.grant)).toEqual(['jwt']);
  });
});

describe('a write that loses to another instance', () => {
  it("serves the winner's set when it is usable", async () => {
    const store = new ScriptedStore();
    const m = manager({}, () => 0.5, store);
    store.rivalOnWrite = rival('at-winner', m.clock.now());
    expect(await m.tokens.getToken()).toBe('at-winner');
    expect(m.calls).toHaveLength(1);
  });

  it('serves its own pair when the winner cannot be used (at its block point) or is gone', async () => {
    const store = new ScriptedStore();
    const m = manager({}, () => 0.5, store);
    store.rivalOnWrite = rival('at-blocked', m.clock.now() - BLOCK);
    expect(await m.tokens.getToken()).toBe('at1');

    const gone = new ScriptedStore();
    gone.loseWrites = true;
    const n = manager({}, () => 0.5, gone);
    expect(await n.tokens.getToken()).toBe('at1');
    expect(n.logger.lines).toEqual([]);
  });

  it('handing the local chain back after an outage: a lost write keeps the token, with no failure logged', async () => {
    const store = new ScriptedStore();
    down(store);
    const m = manager({}, () => 0.5, store);
    expect(await m.tokens.getToken()).toBe('at1');
    store.failure = undefined;
    store.loseWrites = true;
    m.clock.advance(15_000);
    expect(m.tokens.currentToken()).toBe('at1'); // the look at the store runs in the background
    await flush();
    expect(m.logger.lines.filter((line) => !line.startsWith('debug'))).toEqual([
      'warn Token store unavailable; using a token chain of this process until it answers {"error":"Error","message":"connection refused"}',
      'info Token store answers again; using the shared token chain {}',
    ]);
    expect(m.tokens.currentToken()).toBe('at1');
    expect(m.calls).toHaveLength(1);
  });
});

describe('a store that fails', () => {
  it('a look that finds it still down, while nothing is due, serves on quietly: no exchange, no failure', async () => {
    const store = new ScriptedStore();
    down(store);
    const m = manager({}, () => 0.5, store);
    expect(await m.tokens.getToken()).toBe('at1');
    m.clock.advance(15_000);
    expect(m.tokens.currentToken()).toBe('at1');
    await flush();
    expect(m.logger.lines.filter((line) => !line.startsWith('debug'))).toHaveLength(1);
    expect(m.calls).toHaveLength(1);
  });

  it('a 401 before the next look renews on the local chain without asking the store', async () => {
    const store = new ScriptedStore();
    down(store);
    const m = manager({}, () => 0.5, store);
    await m.tokens.getToken();
    const asked = store.leases;
    let reads = 0;
    const read = store.read.bind(store);
    store.read = (scope) => {
      reads += 1;
      return read(scope);
    };
    await expect(m.tokens.onUnauthorized('at1')).resolves.toBe(true);
    expect(await m.tokens.getToken()).toBe('at2');
    expect(reads).toBe(0);
    expect(store.leases).toBe(asked);
  });

  it('whatever it throws, a string or undefined, the local chain serves and the warning names its type', async () => {
    for (const [value, kind] of [
      ['socket closed', 'string'],
      [undefined, 'undefined'],
    ] as const) {
      const store = new ScriptedStore();
      store.failure = { value }; // thrown as it is, undefined included
      const m = manager({}, () => 0.5, store);
      expect(await m.tokens.getToken()).toBe('at1');
      expect(m.logger.lines).toContain(
        `warn Token store unavailable; using a token chain of this process until it answers {"error":"${kind}"}`,
      );
    }
  });

  it("with whenUnavailable: 'fail', an outage fails the call with the store's error, and is not called a misconfiguration", async () => {
    const store = new ScriptedStore();
    store.whenUnavailable = 'fail';
    const error = new Error('connection refused');
    down(store, error);
    const m = manager({}, () => 0.5, store);
    await expect(m.tokens.getToken()).rejects.toBe(error);
    expect(m.logger.lines.filter((line) => !line.startsWith('debug'))).toEqual([]);
    expect(m.calls).toEqual([]);
  });

  it('a misconfigured store is said at error at every look, while the local chain serves', async () => {
    const store = new ScriptedStore();
    down(store, wrongKey());
    const m = manager({}, () => 0.5, store);
    expect(await m.tokens.getToken()).toBe('at1');
    m.clock.advance(15_000);
    m.tokens.currentToken();
    await flush();
    const line =
      'error Token store misconfigured, not unavailable: using a token chain of this process, saying so at every look (every 15 s) until the configuration is fixed {"error":"RedisStoreError","code":"redis_decrypt_failed","message":"Stored token unreadable: encrypted with a key that is not configured"}';
    expect(m.logger.lines.filter((l) => !l.startsWith('debug'))).toEqual([line, line]);
  });
});

describe('a token manager without a logger', () => {
  function silent(store: TokenStore) {
    const clock = new ManualClock();
    const api = memoryEndpoint(clock);
    const tokens = new TokenManager({
      identity: IDENTITY,
      sign: signer,
      endpoint: api.endpoint,
      clock,
      store,
      random: () => 0.5,
      retry: { ...DEFAULT_RETRY, random: () => 0.5 },
    });
    return { clock, tokens };
  }

  it('falls back on an outage and comes back when the store answers', async () => {
    const store = new ScriptedStore();
    down(store);
    const { clock, tokens } = silent(store);
    expect(await tokens.getToken()).toBe('at1');
    store.failure = undefined;
    clock.advance(15_000);
    await expect(tokens.onUnauthorized('at1')).resolves.toBe(true);
    expect(await tokens.getToken()).toBe('at2');
    expect(store.inner.read(SCOPE)?.accessToken).toBe('at2');
  });

  it('serves on a local chain when misconfigured, and fails the call with the error under whenUnavailable: fail', async () => {
    const store = new ScriptedStore();
    down(store, wrongKey());
    expect(await silent(store).tokens.getToken()).toBe('at1');

    const strict = new ScriptedStore();
    strict.whenUnavailable = 'fail';
    const error = wrongKey();
    down(strict, error);
    await expect(silent(strict).tokens.getToken()).rejects.toBe(error);
  });
});
