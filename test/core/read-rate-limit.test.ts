import { describe, expect, it } from 'vitest';
import { readRateLimit } from '../../src/core/rate-limit/read-rate-limit.js';

const NOW = Date.UTC(2025, 0, 1);
const read = (headers: Record<string, string>) => readRateLimit(new Headers(headers), NOW);

// What the limiter learns from each answer's headers: the known answers, absurd ones included.
const CASES: [string, Record<string, string>, ReturnType<typeof readRateLimit>][] = [
  ['no rate-limit header', { 'content-type': 'application/json' }, undefined],
  ['a policy it cannot read', { 'ratelimit-policy': 'garbage' }, undefined],
  ['a policy', { 'ratelimit-policy': '"p";q=5;w=2' }, { limit: 5, windowMs: 2000 }],
  ['the state alone', { ratelimit: '"p";r=0;t=2' }, { remaining: 0, resetMs: 2000 }],
  ['a zero limit and window are no limit', { 'ratelimit-policy': '"p";q=0;w=0' }, undefined],
  [
    'X-RateLimit-*',
    { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '5' },
    { limit: 10, remaining: 3, resetMs: 5000 },
  ],
  [
    'RateLimit-* before X-RateLimit-*',
    {
      'ratelimit-limit': '10',
      'ratelimit-remaining': '3',
      'x-ratelimit-limit': '99',
      'x-ratelimit-remaining': '1',
    },
    { limit: 10, remaining: 3 },
  ],
  [
    'a window on the Limit header',
    { 'x-ratelimit-limit': '10;w=60', 'x-ratelimit-remaining': '5' },
    { limit: 10, windowMs: 60_000, remaining: 5 },
  ],
  [
    'a Reset as an epoch second',
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 4) },
    { remaining: 0, resetMs: 4000 },
  ],
  [
    'a Reset as an epoch millisecond',
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW + 4000) },
    { remaining: 0, resetMs: 4000 },
  ],
  [
    'a Reset of exactly 10^9 s from now: an hour',
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1000000000' },
    { remaining: 0, resetMs: 3_600_000 },
  ],
  [
    'a Reset of exactly 10^12 epoch s: an hour',
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1000000000000' },
    { remaining: 0, resetMs: 3_600_000 },
  ],
  [
    'a Reset in the past',
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW - 5000) },
    { remaining: 0, resetMs: 0 },
  ],
  ['Retry-After', { 'retry-after': '7' }, { retryAfterMs: 7000 }],
  ['a Retry-After it cannot read', { 'retry-after': 'soon', 'x-ratelimit-remaining': '2' }, { remaining: 2 }],
  ['a count that does not start with a number', { 'x-ratelimit-remaining': 'v2 5' }, undefined],
  ['a count with parameters', { 'x-ratelimit-remaining': ' 4;comment' }, { remaining: 4 }],
  ['a 400-digit window is ignored', { 'ratelimit-policy': `"p";q=5;w=${'9'.repeat(400)}` }, { limit: 5 }],
  [
    'a window of 3,170 years: an hour',
    { 'ratelimit-policy': '"p";q=5;w=99999999999' },
    { limit: 5, windowMs: 3_600_000 },
  ],
  [
    'a billion a window: a million',
    { 'ratelimit-policy': '"p";q=1000000000;w=1' },
    { limit: 1_000_000, windowMs: 1000 },
  ],
  ['a 400-digit Retry-After: an hour', { 'retry-after': '9'.repeat(400) }, { retryAfterMs: 3_600_000 }],
];

describe('readRateLimit', () => {
  it.each(CASES)('%s', (_what, headers, hint) => {
    expect(read(headers)).toStrictEqual(hint);
  });
});
