import { describe, expect, it } from 'vitest';
import { MemoryWebhookIdStore } from '../../src/webhooks/index.js';

describe('MemoryWebhookIdStore', () => {
  it('claims an id once, remembers it for its TTL, then forgets it', () => {
    let now = 1_000_000;
    const store = new MemoryWebhookIdStore({ now: () => now });
    expect(store.claim('msg_1', 300)).toBe('new');
    expect(store.claim('msg_1', 300)).toBe('in_progress');
    store.complete('msg_1', 300);
    now += 299_999;
    expect(store.claim('msg_1', 300)).toBe('done');
    now += 1;
    expect(store.claim('msg_1', 300)).toBe('new');
  });

  it('forgets a released id so the retry is handled', () => {
    const store = new MemoryWebhookIdStore();
    expect(store.claim('msg_1', 300)).toBe('new');
    store.release('msg_1');
    expect(store.claim('msg_1', 300)).toBe('new');
  });

  it('drops expired ids and caps its size, oldest first', () => {
    let now = 0;
    const store = new MemoryWebhookIdStore({ now: () => new Date(now), maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) store.claim(id, 60);
    expect(store.size).toBe(3);
    expect(store.claim('a', 60)).toBe('new'); // evicted as the oldest
    expect(store.claim('d', 60)).toBe('in_progress');
    now = 61_000;
    expect(store.size).toBe(0);
    expect(() => new MemoryWebhookIdStore({ maxEntries: 0 })).toThrow(RangeError);
  });
});
