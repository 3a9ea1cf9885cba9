import { describe, expect, it } from 'vitest';
import { InputValidationError, PartnerEquity } from '../../src/index.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';

const TOO_LONG = 2 ** 31; // one past the longest timer Node.js sets: setTimeout would fire after 1 ms
const sent: string[] = [];
const base = {
  baseUrl: 'https://api.example.test',
  fetch: async (input: string | URL | Request) => {
    sent.push(String(input));
    return new Response('{}', { headers: { 'content-type': 'application/json' } });
  },
};

function refusal(build: () => unknown): InputValidationError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(InputValidationError);
    return error as InputValidationError;
  }
  throw new Error('expected an InputValidationError');
}

describe('durations past the longest timer are refused when the client is built', () => {
  it('names every such option of the client', () => {
    const error = refusal(
      () =>
        new PartnerEquity({
          ...base,
          maxRateLimitWait: TOO_LONG,
          timeout: TOO_LONG,
          deadline: 1e12,
          retry: { initialDelayMs: TOO_LONG, maxDelayMs: TOO_LONG, maxRetryAfterMs: Number.MAX_VALUE },
        }),
    );
    expect(error.issues.map((issue) => issue.path).sort()).toEqual([
      'deadline',
      'maxRateLimitWait',
      'retry.initialDelayMs',
      'retry.maxDelayMs',
      'retry.maxRetryAfterMs',
      'timeout',
    ]);
    expect(error.message).toContain('maxRateLimitWait: must be at most 2147483647 ms');
  });

  it('accepts the longest timer itself', () => {
    expect(
      () => new PartnerEquity({ ...base, maxRateLimitWait: 2 ** 31 - 1, timeout: 2 ** 31 - 1 }),
    ).not.toThrow();
  });

  it('refuses them on a derived client too', () => {
    const client = new PartnerEquity(base);
    const error = refusal(() => client.withOptions({ maxRateLimitWait: TOO_LONG }));
    expect(error.issues.map((issue) => issue.path)).toEqual(['maxRateLimitWait']);
  });

  it('refuses them per call, before anything is sent', async () => {
    const client = new PartnerEquity(base);
    const error = await client.system
      .health({ maxRateLimitWait: TOO_LONG, timeout: TOO_LONG })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues.map((issue) => issue.path).sort()).toEqual([
      'maxRateLimitWait',
      'timeout',
    ]);
    expect(sent).toEqual([]);
  });

  it('refuses a Redis store command timeout past it', () => {
    const client = { sendCommand: async () => 0, isReady: true };
    const error = refusal(() => new RedisRateLimitStore({ client, commandTimeoutMs: TOO_LONG }));
    expect(error.issues.map((issue) => issue.path)).toEqual(['commandTimeoutMs']);
  });
});
