import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/testing/index.js';

describe('ManualClock', () => {
  it('moves only when advanced, firing due timers and sleeps in time order with now() at their due time', async () => {
    const clock = new ManualClock(1_000);
    const seen: Array<[string, number]> = [];
    void clock.sleep(300).then(() => seen.push(['sleep 300', clock.now()]));
    clock.schedule(100, () => seen.push(['timer 100', clock.now()]));
    clock.schedule(100, () => seen.push(['timer 100 (second)', clock.now()]));
    clock.schedule(500, () => seen.push(['timer 500', clock.now()]));
    expect(clock.pendingTimers).toBe(4);
    await clock.advance(299);
    expect(clock.now()).toBe(1_299);
    expect(seen).toEqual([
      ['timer 100', 1_100],
      ['timer 100 (second)', 1_100],
    ]);
    await clock.advance(300);
    expect(seen.map(([name]) => name)).toEqual(['timer 100', 'timer 100 (second)', 'sleep 300', 'timer 500']);
    expect(clock.now()).toBe(1_599);
  });

  it('fires timers scheduled by timers inside the same advance', async () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    const chain = (n: number) =>
      clock.schedule(10, () => {
        fired.push(clock.now());
        if (n > 1) chain(n - 1);
      });
    chain(3);
    await clock.advance(100);
    expect(fired).toEqual([10, 20, 30]);
  });

  it('sleep(0) resolves at once; an aborted sleep rejects with the reason and never fires', async () => {
    const clock = new ManualClock(0);
    await clock.sleep(0);
    const controller = new AbortController();
    const sleeping = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(clock.pendingTimers).toBe(0);
    await expect(clock.sleep(10, controller.signal)).rejects.toThrow('stop');
  });

  it('set() jumps forward like advance and backward without firing; a cancelled timer never fires', async () => {
    const clock = new ManualClock(10_000);
    let fired = 0;
    const cancel = clock.schedule(50, () => fired++);
    clock.schedule(100, () => fired++);
    cancel();
    await clock.set(5_000);
    expect(clock.now()).toBe(5_000);
    expect(fired).toBe(0);
    await clock.set(10_100);
    expect(fired).toBe(1);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
  });
});
