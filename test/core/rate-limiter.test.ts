import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  MemoryRateLimitStore,
  type RateLimitStore,
  type RateLimitUpdate,
  type RateRule,
} from '../../src/core/rate-limit/rate-limit-store.js';
import {
  BLOCKED_PROBE_MS,
  RateLimiter,
  STORE_RETRY_MS,
  WaitExceeded,
} from '../../src/core/rate-limit/rate-limiter.js';
import { ManualClock } from '../../src/testing/index.js';
import { memoryLogger } from '../helpers/memory-logger.js';

// The limiter on its own, on a manual clock: when each request may go is what a partner sees of it (a batch
// that waits its turn, a call that gives up at once), and what it tells the shared store is what the rest
// of the fleet sees. Times are in ms since T0.
const T0 = Date.UTC(2025, 0, 1, 0, 0, 0, 500);

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

function limiterOn(store?: RateLimitStore) {
  const clock = new ManualClock(T0);
  const logger = memoryLogger();
  const limiter = new RateLimiter({ key: 'client_1', clock, logger, store });
  /** When each request went (ms since T0), by the index it was asked under; rejections by index too. */
  const went: (number | undefined)[] = [];
  const failed: unknown[] = [];
  const ask = (index: number, maxWaitMs = Number.POSITIVE_INFINITY, signal?: AbortSignal) => {
    const turn = limiter.turn(maxWaitMs, signal);
    if (turn === undefined) went[index] = clock.now() - T0;
    else
      turn.then(
        () => {
          went[index] = clock.now() - T0;
        },
        (error: unknown) => {
          failed[index] = error;
        },
      );
    return turn;
  };
  const answer = (status: number, headers: Record<string, string> = {}, maxWaitMs?: number) =>
    limiter.observe({ status, headers: new Headers(headers) }, maxWaitMs);
  /** Moves the clock to `ms` since T0, one millisecond at a time around the times that matter. */
  const at = async (ms: number) => {
    await settle();
    await clock.advance(ms - (clock.now() - T0));
    await settle();
  };
  return { clock, logger, limiter, went, failed, ask, answer, at };
}

/** Answers that teach a rule: `q` requests per `w` seconds, `r` left, a reset in `t` seconds. */
const policy = (q: number, w: number, r: number, t = w) => ({
  'ratelimit-policy': `"p";q=${q};w=${w}`,
  ratelimit: `"p";r=${r};t=${t}`,
});

describe('before the first answer', () => {
  it('the first request goes alone; the others go when it is answered without limits, and from then on at once', async () => {
    const l = limiterOn();
    expect(l.ask(0)).toBeUndefined();
    expect(l.ask(1)).toBeInstanceOf(Promise);
    expect(l.ask(2)).toBeInstanceOf(Promise);
    await l.at(400);
    expect(l.went).toEqual([0]);
    l.answer(200);
    await l.at(400);
    expect(l.went).toEqual([0, 400, 400]);
    expect(l.ask(3)).toBeUndefined();
    expect(l.logger.lines).toEqual([]);
  });

  it('a first answer slower than a second lets the others go after that second, not before', async () => {
    const l = limiterOn();
    l.ask(0);
    l.ask(1);
    await l.at(999);
    expect(l.went).toEqual([0]);
    await l.at(1000);
    expect(l.went).toEqual([0, 1000]);
    // Open from then on: the late answer, without limits, changes nothing.
    expect(l.ask(2)).toBeUndefined();
    l.answer(200);
    expect(l.ask(3)).toBeUndefined();
  });

  it('no answer at all (a network failure): the next request goes, still alone', async () => {
    const l = limiterOn();
    l.ask(0);
    l.ask(1);
    l.ask(2);
    await l.at(100);
    l.limiter.observe(undefined);
    await l.at(200);
    expect(l.went).toEqual([0, 100]);
    l.answer(200);
    await l.at(300);
    expect(l.went).toEqual([0, 100, 200]);
  });

  it('a request asked for while the first is out but before any waiter goes alone too', async () => {
    const l = limiterOn();
    l.ask(0);
    l.limiter.observe(undefined); // the first failed: nothing is out, nobody waits
    expect(l.ask(1)).toBeUndefined();
    expect(l.ask(2)).toBeInstanceOf(Promise);
  });

  it('a 5xx first answer says nothing of limits: the others go', async () => {
    const l = limiterOn();
    l.ask(0);
    l.ask(1);
    l.answer(503, { 'retry-after': '30', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' });
    await l.at(1);
    expect(l.went).toEqual([0, 0]);
    expect(l.ask(2)).toBeUndefined();
  });
});

describe('a limit the service states', () => {
  it('q per w with r left: r go at once, then one every w/q', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(4, 2, 2));
    expect(l.logger.lines).toEqual([
      { level: 'debug', message: 'rate limit: pacing requests (4 per 2000 ms)', fields: undefined },
    ]);
    for (let i = 1; i <= 5; i += 1) l.ask(i);
    await l.at(0);
    expect(l.went).toEqual([0, 0, 0]);
    await l.at(499);
    expect(l.went).toHaveLength(3);
    await l.at(500);
    expect(l.went).toEqual([0, 0, 0, 500]);
    await l.at(1500);
    expect(l.went).toEqual([0, 0, 0, 500, 1000, 1500]);
    // Told once, not on every answer.
    l.answer(200, policy(4, 2, 1));
    expect(l.logger.lines.filter((line) => line.message.startsWith('rate limit: pacing'))).toHaveLength(1);
  });

  it('r = 0: nothing goes until the reset', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(10, 1, 0, 3));
    l.ask(1);
    await l.at(2999);
    expect(l.went).toEqual([0]);
    await l.at(3000);
    expect(l.went).toEqual([0, 3000]);
  });

  it('a limit without a window is per reset, and per second at the least', async () => {
    const perReset = limiterOn();
    perReset.ask(0);
    perReset.answer(200, {
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': '5',
    });
    for (let i = 1; i <= 3; i += 1) perReset.ask(i);
    await perReset.at(1000);
    // 10 per 5 s: one left now, then one every 500 ms.
    expect(perReset.went).toEqual([0, 0, 500, 1000]);

    const perSecond = limiterOn();
    perSecond.ask(0);
    perSecond.answer(200, { 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': '1' });
    for (let i = 1; i <= 3; i += 1) perSecond.ask(i);
    await perSecond.at(500);
    expect(perSecond.went).toEqual([0, 0, 250, 500]);
  });

  it('a count left without a limit paces nothing; a limit without a count left starts with a full burst', async () => {
    const countOnly = limiterOn();
    countOnly.ask(0);
    countOnly.answer(200, { 'x-ratelimit-remaining': '3' });
    countOnly.ask(1);
    countOnly.ask(2);
    await countOnly.at(0);
    expect(countOnly.went).toEqual([0, 0, 0]);

    const limitOnly = limiterOn();
    limitOnly.ask(0);
    limitOnly.answer(200, { 'ratelimit-policy': '"p";q=2;w=1' });
    for (let i = 1; i <= 4; i += 1) limitOnly.ask(i);
    await limitOnly.at(1000);
    expect(limitOnly.went).toEqual([0, 0, 0, 500, 1000]);
  });

  it('none left with a reset sooner than the window: the next goes at the reset', async () => {
    const l = limiterOn();
    l.ask(0);
    // 2 per 10 s, none left, a reset in 1 s.
    l.answer(200, policy(2, 10, 0, 1));
    l.ask(1);
    await l.at(1000);
    expect(l.went).toEqual([0, 1000]);
  });

  it('a 429 returns the wait it asked for and holds the others as long', async () => {
    const l = limiterOn();
    l.ask(0);
    expect(l.answer(429, { 'retry-after': '3' })).toBe(3000);
    expect(l.logger.lines[0]?.message).toBe('rate limit: pacing requests (throttled)');
    l.ask(1);
    await l.at(2999);
    expect(l.went).toEqual([0]);
    await l.at(3000);
    expect(l.went).toEqual([0, 3000]);
  });

  it('a 429 without Retry-After waits for the reset when none is left, else for the window', async () => {
    const reset = limiterOn();
    reset.ask(0);
    expect(reset.answer(429, policy(5, 1, 0, 4))).toBe(4000);
    const window = limiterOn();
    window.ask(0);
    // Some left: the window, not the reset (7 s here).
    expect(window.answer(429, policy(5, 2, 1, 7))).toBe(2000);
    // No limit learned (a bare 429): no wait told, the retry loop backs off.
    const bare = limiterOn();
    bare.ask(0);
    expect(bare.answer(429)).toBeUndefined();
    // Not a 429: no wait returned, even with none left.
    const spent = limiterOn();
    spent.ask(0);
    expect(spent.answer(200, policy(5, 1, 0, 4))).toBeUndefined();
  });

  it("a wait past the caller's bound is not imposed on the others; one within it is, up to the bound itself", async () => {
    const over = limiterOn();
    over.ask(0);
    expect(over.answer(429, { 'retry-after': '3' }, 2999)).toBe(3000);
    over.ask(1);
    await over.at(1);
    expect(over.went).toEqual([0, 0]);

    const exact = limiterOn();
    exact.ask(0);
    exact.answer(429, { 'retry-after': '3' }, 3000);
    exact.ask(1);
    await exact.at(2999);
    expect(exact.went).toEqual([0]);
  });

  it('a later 429 without headers waits the stated window and keeps the stated rule', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(2, 1, 2));
    l.ask(1);
    await l.at(0);
    expect(l.answer(429)).toBe(1000);
    for (let i = 2; i <= 4; i += 1) l.ask(i);
    await l.at(999);
    expect(l.went).toEqual([0, 0]);
    await l.at(1500);
    // Still 2 per second (a cut pace would be 0.7 per second).
    expect(l.went).toEqual([0, 0, 1000, 1000, 1500]);
  });

  it('every request waiting is told once, and when none waits any more', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    l.ask(1);
    l.ask(2);
    await l.at(2000);
    expect(l.logger.lines.map((line) => line.message)).toEqual([
      'rate limit: pacing requests (1 per 1000 ms)',
      'rate limit: 2 request(s) waiting their turn',
      'rate limit: no request waiting any more',
    ]);
  });
});

describe("a caller's bound and signal", () => {
  it('a call whose turn comes after its bound gives up at once, saying how long it waited', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    l.ask(1);
    l.ask(2, 500);
    await l.at(0);
    expect(l.failed[2]).toBeInstanceOf(WaitExceeded);
    expect((l.failed[2] as WaitExceeded).waitedMs).toBe(0);
    expect((l.failed[2] as WaitExceeded).message).toBe('rate limit wait exceeded');
    // Nobody is left waiting: the pump stops rather than sleep for no one.
    expect(l.logger.text()).not.toContain('0 request(s) waiting');
    // Behind a pump that sleeps past its bound, a new call gives up at once (it waited 0 ms).
    await l.at(300);
    const late = l.ask(3, 200);
    await expect(late).rejects.toEqual(new WaitExceeded(0));
    // One whose bound ends as the pump wakes waits for it, then gives up (the next slot is later still).
    l.ask(4, 700);
    // One whose bound ends exactly at its slot keeps its place.
    l.ask(5, 1700);
    await l.at(1000);
    expect(l.went).toEqual([0, 1000]);
    expect((l.failed[4] as WaitExceeded).waitedMs).toBe(700);
    await l.at(2000);
    expect(l.went[5]).toBe(2000);
    expect(l.failed[5]).toBeUndefined();
  });

  it('a waiter that must give up later says how long it waited', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    l.ask(1);
    l.ask(2, 1800);
    await l.at(1000);
    // Request 1 took the slot at 1000; the next is at 2000, past 2's bound (1800): it stops, having waited 1 s.
    expect((l.failed[2] as WaitExceeded).waitedMs).toBe(1000);
  });

  it('a waiter that goes leaves no listener on its signal', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    const signal = new AbortController().signal;
    l.ask(1, Number.POSITIVE_INFINITY, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    await l.at(1000);
    expect(l.went).toEqual([0, 1000]);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('an aborted waiter leaves with the signal reason, and the queue moves on', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    const stop = new AbortController();
    l.ask(1, Number.POSITIVE_INFINITY, stop.signal);
    l.ask(2);
    await l.at(500);
    const reason = new Error('caller gave up');
    stop.abort(reason);
    await l.at(1000);
    expect(l.failed[1]).toBe(reason);
    expect(l.went).toEqual([0, undefined, 1000]);
  });
});

describe('after bare 429s (no headers): CUBIC on the send rate', () => {
  /** Ten requests in one second answered, then a bare 429: cut to 70 % of 10/s. */
  async function throttled() {
    const l = limiterOn();
    l.ask(0);
    l.answer(200);
    for (let i = 1; i < 10; i += 1) l.ask(i);
    await l.at(200);
    l.ask(10);
    l.answer(429);
    return l;
  }

  it('cuts the pace to 70 % of what went in the last second', async () => {
    const l = await throttled();
    for (let i = 11; i <= 14; i += 1) l.ask(i);
    await l.at(800);
    // 11 went this second: 7.7 per second, one every 129.9 ms (the first at once).
    expect(l.went.slice(11)).toEqual([200, 330, 460, 590]);
  });

  it('counts the second before when this one has just begun', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200);
    for (let i = 1; i < 6; i += 1) l.ask(i);
    // 6 went in the second that ends at T0 + 500 ms; 2 more in the next, then a 429.
    await l.at(600);
    l.ask(6);
    l.ask(7);
    l.answer(429);
    for (let i = 8; i <= 10; i += 1) l.ask(i);
    await l.at(1200);
    // max(6, 2) × 0.7 = 4.2 per second: one every 238.1 ms.
    expect(l.went.slice(8)).toEqual([600, 839, 1078]);
  });

  it('forgets a second that is not the one before', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200);
    for (let i = 1; i < 6; i += 1) l.ask(i);
    await l.at(2600);
    l.ask(6);
    l.answer(429);
    l.ask(7);
    l.ask(8);
    await l.at(6000);
    // One went in this second, none in the one before: 0.7 per second, the floor is 0.5.
    expect(l.went.slice(7)).toEqual([2600, 4029]);
  });

  it('a second 429 cuts from the cut rate; 2xx answers grow it back along the cubic, to twice what went', async () => {
    const l = await throttled();
    l.ask(11);
    l.answer(429); // 7 → 4.9 per second
    const paced = async (from: number) => {
      const first = l.went.length;
      l.ask(first);
      l.ask(first + 1);
      await l.at(from + 1000);
      return (l.went[first + 1] as number) - (l.went[first] as number);
    };
    // 12 went this second, but the pace was 7.7: cut from that, to 5.39 per second.
    expect(await paced(200)).toBe(Math.ceil(1000 / (7.7 * 0.7)));
    // 2 s after the cut: 0.4 (2 − ∛(7.7 × 0.3 / 0.4))³ + 7.7 per second.
    await l.at(2200);
    l.answer(200);
    const grown = 0.4 * (2 - Math.cbrt((7.7 * 0.3) / 0.4)) ** 3 + 7.7;
    expect(await paced(2200)).toBe(Math.ceil(1000 / grown));
    // 10 s after, the cubic is far above what went: held to twice the most of the last seconds and the
    // pace before the cut (2 went in this second, none in the one before: 2 × 7.7).
    await l.at(12200);
    l.answer(200);
    expect(await paced(12200)).toBe(Math.ceil(1000 / (2 * 7.7)));
  });

  it('a 4xx other than 429, or no answer, does not grow the rate', async () => {
    const l = await throttled();
    await l.at(5200);
    l.answer(400);
    l.limiter.observe(undefined);
    const first = l.went.length;
    l.ask(first);
    l.ask(first + 1);
    await l.at(6200);
    expect((l.went[first + 1] as number) - (l.went[first] as number)).toBe(130);
  });
});

describe('a budget blocked for long', () => {
  it('lets one request through a minute after the last; its answer without limits opens everything', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 3600, 0, 3600));
    l.ask(1);
    l.ask(2);
    await l.at(BLOCKED_PROBE_MS - 1);
    expect(l.went).toEqual([0]);
    expect(l.logger.text()).not.toContain('budget blocked');
    await l.at(BLOCKED_PROBE_MS);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS]);
    expect(l.logger.text()).toContain('rate limit: budget blocked; one request goes to learn it again');
    l.answer(200);
    await l.at(BLOCKED_PROBE_MS + 1);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS, BLOCKED_PROBE_MS]);
    expect(l.ask(3)).toBeUndefined();
  });

  it('after the probe opened everything, a bare 429 cuts the pace again', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 3600, 0, 3600));
    l.ask(1);
    await l.at(BLOCKED_PROBE_MS);
    l.answer(200);
    l.ask(2);
    l.answer(429);
    for (let i = 3; i <= 5; i += 1) l.ask(i);
    await l.at(BLOCKED_PROBE_MS + 3000);
    // Two went in this second: 1.4 per second, one every 715 ms.
    expect(l.went.slice(3)).toEqual([BLOCKED_PROBE_MS, BLOCKED_PROBE_MS + 715, BLOCKED_PROBE_MS + 1430]);
  });

  it('a 429 to the probe holds everyone for its Retry-After, then the budget starts afresh', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 3600, 0, 3600));
    l.ask(1);
    l.ask(2);
    await l.at(BLOCKED_PROBE_MS);
    expect(l.answer(429, { 'retry-after': '5' })).toBe(5000);
    await l.at(BLOCKED_PROBE_MS + 4999);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS]);
    await l.at(BLOCKED_PROBE_MS + 5000);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS, BLOCKED_PROBE_MS + 5000]);
  });

  it('a probe that got no answer replaces nothing: the budget stays blocked until the next probe', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 3600, 0, 3600));
    l.ask(1);
    l.ask(2);
    await l.at(BLOCKED_PROBE_MS);
    l.limiter.observe(undefined);
    await l.at(2 * BLOCKED_PROBE_MS - 1);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS]);
    await l.at(2 * BLOCKED_PROBE_MS);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS, 2 * BLOCKED_PROBE_MS]);
  });

  it("the probe's answer replaces the rule, back as well as forward", async () => {
    const pushed: RateLimitUpdate[] = [];
    const memory = new MemoryRateLimitStore();
    const store: RateLimitStore = {
      take: (key, rule, now) => memory.take(key, rule, now),
      push: async (key, update, now) => {
        pushed.push(update);
        await memory.push(key, update, now);
      },
    };
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(1, 3600, 0, 3600));
    l.ask(1);
    l.ask(2);
    await l.at(BLOCKED_PROBE_MS);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS]);
    // A sane answer: 5 per second, 4 left.
    l.answer(200, policy(5, 1, 4));
    await l.at(BLOCKED_PROBE_MS + 1);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS, BLOCKED_PROBE_MS]);
    const now = T0 + BLOCKED_PROBE_MS;
    expect(pushed.at(-1)).toEqual({ until: now, tat: now + 200, replace: true });
  });

  it('a 5xx to the probe replaces nothing: the next answer still does', async () => {
    const l = limiterOn();
    l.ask(0);
    l.answer(200, policy(1, 3600, 0, 3600));
    l.ask(1);
    l.ask(2);
    await l.at(BLOCKED_PROBE_MS);
    l.answer(500);
    await l.at(BLOCKED_PROBE_MS + 1);
    expect(l.went).toEqual([0, BLOCKED_PROBE_MS]);
  });
});

describe('a shared store', () => {
  /** A store that records its commands and answers from a memory store, or as `answer` says. */
  function recording(answer?: (rule: RateRule) => Promise<number>) {
    const memory = new MemoryRateLimitStore();
    const commands: string[] = [];
    const store: RateLimitStore = {
      take: (key, rule, now) => {
        commands.push(`take ${key}`);
        return answer ? answer(rule) : memory.take(key, rule, now);
      },
      push: async (key, update, now) => {
        commands.push(`push ${key} ${JSON.stringify(update)}`);
        await memory.push(key, update, now);
      },
    };
    return { store, commands };
  }

  it('gets what the client learned, in order, and is asked for every slot', async () => {
    const { store, commands } = recording();
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(2, 1, 1));
    l.ask(1);
    l.ask(2);
    await l.at(1000);
    expect(commands).toEqual([
      `push client_1 {"tat":${T0 + 500}}`,
      'take client_1',
      'take client_1',
      'take client_1',
    ]);
    expect(l.went).toEqual([0, 0, 500]);
    // A limit alone teaches the rule and moves no time: nothing to tell the store.
    l.answer(200, { 'ratelimit-policy': '"p";q=2;w=1' });
    await settle();
    expect(commands.filter((c) => c.startsWith('push'))).toHaveLength(1);
    // Each take's timer (the caller's bound) is gone once the store answered; nothing said of faults.
    expect(l.clock.pendingTimers).toBe(0);
    expect(l.logger.text()).not.toContain('store');
  });

  it('a store that fails is left for 30 s with one warning naming its code; the client keeps its own pace', async () => {
    let fail = true;
    const { store, commands } = recording(async () => {
      if (fail) throw Object.assign(new Error('connection lost'), { code: 'redis_unavailable' });
      return 0;
    });
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(2, 1, 0, 1));
    l.ask(1);
    l.ask(2);
    await l.at(1500);
    // 2 per second from the reset, on the client's own budget: both at once.
    expect(l.went).toEqual([0, 1000, 1000]);
    expect(l.logger.lines.filter((line) => line.level === 'warn')).toEqual([
      {
        level: 'warn',
        message:
          'rate limit store unavailable; pacing without it for 30 s (redis_unavailable: connection lost)',
        fields: undefined,
      },
    ]);
    expect(commands.filter((c) => c.startsWith('take'))).toHaveLength(1);
    // Back after 30 s: asked again, and said once.
    fail = false;
    await l.at(1000 + STORE_RETRY_MS);
    l.ask(3);
    await l.at(1001 + STORE_RETRY_MS);
    expect(commands.filter((c) => c.startsWith('take'))).toHaveLength(2);
    expect(l.logger.text()).toContain('rate limit store answers again');
  });

  it('a store that failed, answered again, then failed again: warned twice', async () => {
    let fail = true;
    const { store } = recording(async () => {
      if (fail) throw new Error('boom');
      return 0;
    });
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    l.ask(1);
    await l.at(1000);
    fail = false;
    await l.at(1000 + STORE_RETRY_MS);
    l.ask(2);
    await l.at(2000 + STORE_RETRY_MS);
    fail = true;
    l.ask(3);
    await l.at(3000 + STORE_RETRY_MS);
    expect(
      l.logger.lines
        .filter((line) => line.message.includes('store'))
        .map((line) => `${line.level} ${line.message.slice(0, 40)}`),
    ).toEqual([
      'warn rate limit store unavailable; pacing wit',
      'debug rate limit store answers again',
      'warn rate limit store unavailable; pacing wit',
    ]);
  });

  it('a store whose write fails is left too', async () => {
    const store: RateLimitStore = {
      take: async () => 0,
      push: async () => {
        throw Object.assign(new Error('READONLY'), { code: 'redis_error' });
      },
    };
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    await settle();
    expect(l.logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      'rate limit store unavailable; pacing without it for 30 s (redis_error: READONLY)',
    ]);
  });

  it('a second failure after the store came back warns again; one while it is left is debug', async () => {
    const { store } = recording(async () => {
      throw new Error('boom');
    });
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    l.ask(1);
    await l.at(1000);
    await l.at(2000 + STORE_RETRY_MS);
    l.ask(2);
    await l.at(3000 + STORE_RETRY_MS);
    const failures = l.logger.lines.filter((line) => line.message.startsWith('rate limit store unavailable'));
    expect(failures.map((line) => line.level)).toEqual(['warn', 'debug']);
    expect(failures[0]?.message).toContain('(undefined: boom)'.replace('undefined: ', ''));
  });

  it.each([
    ['a string', 'soon', 'string'],
    ['NaN', Number.NaN, 'NaN'],
    ['a negative number', -1, '-1'],
    ['Infinity', Number.POSITIVE_INFINITY, 'Infinity'],
  ])('a store that answers %s is a fault: the client paces itself', async (_what, reply, said) => {
    const { store } = recording(async () => reply as number);
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    l.ask(1);
    await l.at(1000);
    expect(l.went).toEqual([0, 1000]);
    expect(l.logger.lines.find((line) => line.level === 'warn')?.message).toBe(
      `rate limit store unavailable; pacing without it for 30 s (undefined: the store answered ${said}, not a wait in ms)`.replace(
        'undefined: ',
        '',
      ),
    );
  });

  it('a wait from the store is held to an hour', async () => {
    const { store } = recording(async () => 10 * 3_600_000);
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(1, 1, 1));
    l.ask(1, 3_600_000);
    await l.at(0);
    // Within its bound of an hour: it waits (blocked, so a probe lets it through after a minute).
    expect(l.failed[1]).toBeUndefined();
  });

  it("no answer within the caller's bound: a fault, unless the bound is under 100 ms", async () => {
    const { store } = recording(() => new Promise<number>(() => undefined));
    const patient = limiterOn(store);
    patient.ask(0);
    patient.answer(200, policy(1, 1, 1));
    patient.ask(1, 500);
    await patient.at(500);
    expect(patient.went).toEqual([0, 500]);
    expect(patient.logger.lines.find((line) => line.level === 'warn')?.message).toBe(
      'rate limit store unavailable; pacing without it for 30 s (no answer within 500 ms)',
    );

    const hurried = limiterOn(store);
    hurried.ask(0);
    hurried.answer(200, policy(1, 1, 1));
    hurried.ask(1, 99);
    await hurried.at(99);
    expect(hurried.went).toEqual([0, 99]);
    expect(hurried.logger.lines.filter((line) => line.level === 'warn')).toEqual([]);

    const edge = limiterOn(store);
    edge.ask(0);
    edge.answer(200, policy(1, 1, 1));
    edge.ask(1, 100);
    await edge.at(100);
    expect(edge.logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('after a hung command, the next does not queue behind it', async () => {
    let hang = true;
    const { store, commands } = recording(async () => {
      if (hang) return new Promise<number>(() => undefined);
      return 0;
    });
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(1, 1, 1));
    l.ask(1, 500);
    await l.at(500);
    hang = false;
    await l.at(600 + STORE_RETRY_MS);
    l.answer(200, policy(1, 1, 1));
    l.ask(2);
    await l.at(601 + STORE_RETRY_MS);
    expect(commands.filter((c) => c.startsWith('push'))).toHaveLength(2);
    expect(commands.filter((c) => c.startsWith('take'))).toHaveLength(2);
  });
});

describe('close()', () => {
  it('fails the waiting calls and every later one with its reason, and waits for the store commands sent', async () => {
    let release: () => void = () => undefined;
    const commands: string[] = [];
    const store: RateLimitStore = {
      take: async () => 1000,
      push: (key) => {
        commands.push(`push ${key}`);
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    };
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(1, 1, 0));
    await settle();
    l.ask(1);
    await settle();
    const reason = new Error('closed');
    let closed = false;
    const closing = l.limiter.close(reason).then(() => {
      closed = true;
    });
    await settle();
    expect(l.failed[1]).toBe(reason);
    expect(closed).toBe(false);
    release();
    await closing;
    await expect(l.limiter.turn(1000)).rejects.toBe(reason);
    // A second close keeps the first reason; nothing more goes to the store.
    await l.limiter.close(new Error('again'));
    await expect(l.limiter.turn(1000)).rejects.toBe(reason);
    l.answer(200, policy(1, 1, 0));
    await settle();
    expect(commands).toEqual(['push client_1']);
  });

  it('sends no command queued behind one in flight, and a command failing after close warns of nothing', async () => {
    let fail: (error: Error) => void = () => undefined;
    const commands: string[] = [];
    const store: RateLimitStore = {
      take: async () => 0,
      push: (_key, update) => {
        commands.push(JSON.stringify(update));
        return new Promise<void>((_resolve, reject) => {
          fail = reject;
        });
      },
    };
    const l = limiterOn(store);
    l.ask(0);
    l.answer(200, policy(2, 1, 1));
    l.answer(200, policy(2, 1, 0));
    await settle();
    expect(commands).toHaveLength(1);
    const closing = l.limiter.close(new Error('closed'));
    fail(new Error('lost'));
    await closing;
    await settle();
    expect(commands).toHaveLength(1);
    expect(l.logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('stops the first-answer timer', async () => {
    const l = limiterOn();
    l.ask(0);
    l.ask(1);
    await l.limiter.close(new Error('closed'));
    expect(l.clock.pendingTimers).toBe(0);
  });
});
