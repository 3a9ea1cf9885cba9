import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AttemptTimers } from '../../src/core/request/attempt-timers.js';
import { headerOf, undiciTransport } from '../../src/core/transport/transport.js';

const aborted = (controller: AbortController) =>
  new Promise<number>((resolve) => {
    const started = performance.now();
    controller.signal.addEventListener('abort', () => resolve(performance.now() - started));
  });

describe('AttemptTimers (one shared timer for every attempt timeout)', () => {
  it('aborts each controller at its own time, the later-armed shorter one first', async () => {
    const timers = new AttemptTimers();
    const long = new AbortController();
    const short = new AbortController();
    const order: string[] = [];
    long.signal.addEventListener('abort', () => order.push('long'));
    short.signal.addEventListener('abort', () => order.push('short'));
    const longDone = aborted(long);
    const shortDone = aborted(short);
    timers.arm(long, 60);
    timers.arm(short, 15);
    const [longMs, shortMs] = await Promise.all([longDone, shortDone]);
    expect(order).toEqual(['short', 'long']);
    expect(shortMs).toBeGreaterThanOrEqual(14);
    expect(longMs).toBeGreaterThanOrEqual(59);
  });

  it('never aborts a cancelled attempt, and still aborts the others', async () => {
    const timers = new AttemptTimers();
    const settled = new AbortController();
    const hanging = new AbortController();
    const hangingDone = aborted(hanging);
    timers.cancel(timers.arm(settled, 5));
    timers.arm(hanging, 25);
    await hangingDone;
    expect(settled.signal.aborted).toBe(false);
  });
});

describe('headerOf on undici responses', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('reads single headers exactly as the Headers object would', async () => {
    const server = createServer((_request, response) => {
      response.setHeader('x-request-id', 'req_1');
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.setHeader('content-type', 'application/json');
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const transport = undiciTransport();
    close = async () => {
      await transport.close();
      await new Promise((resolve) => server.close(resolve));
    };
    const { port } = server.address() as AddressInfo;
    const response = await transport({
      method: 'GET',
      url: new URL(`http://127.0.0.1:${port}/`),
      headers: {},
      signal: new AbortController().signal,
    });
    const names = ['x-request-id', 'set-cookie', 'content-type', 'content-length', 'retry-after'];
    const fast = names.map((name) => headerOf(response, name));
    expect(fast).toEqual(names.map((name) => response.headers.get(name)));
    expect(fast).toEqual(['req_1', 'a=1, b=2', 'application/json', '2', null]);
    expect(await response.text()).toBe('{}');
  });
});
