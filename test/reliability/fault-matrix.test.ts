import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { RequestOptions } from '../../src/core/request/request-options.js';
import type { FaultSpec } from '../../src/testing/index.js';
import { type ReliabilityEnv, startEnv } from './fake-env.js';
import { WRITES, type WriteCase } from './writes.js';

/**
 * Every partner write × every fault, each on a fresh fake over a real loopback socket. The invariant a
 * partner relies on: the call either succeeds and the fake holds exactly one resource, or it fails with a
 * typed error and the fake holds none. Each cell states its expected outcome ({@link expected}) and why.
 *
 * The outcome table is rendered to test/reliability/fault-matrix.md and must match the committed file
 * (regenerate with `UPDATE_FAULT_MATRIX=1 npm test -- test/reliability/fault-matrix`, then `npm run format`).
 */
interface FaultCase {
  name: string;
  spec: Omit<FaultSpec, 'match' | 'times'>;
  /** Per-call options for the write under this fault. */
  options: RequestOptions;
  /** Whether the faulted attempt reached the route and changed state. */
  processedFirst: boolean;
  why: string;
}

const FAULTS: FaultCase[] = [
  {
    name: '503',
    spec: { status: 503 },
    options: {},
    processedFirst: false,
    why: 'answered before processing; retried after backoff',
  },
  {
    name: '502',
    spec: { status: 502 },
    options: {},
    processedFirst: false,
    why: 'a proxy error, nothing processed; retried after backoff',
  },
  {
    name: '429 + Retry-After: 2',
    spec: { status: 429, retryAfter: 2 },
    options: {},
    processedFirst: false,
    why: 'retried after exactly the 2 s the server asked for (on the shared clock)',
  },
  {
    name: 'dropped before processing',
    spec: { drop: 'before' },
    options: {},
    processedFirst: false,
    why: 'connection error, nothing processed; retried',
  },
  {
    name: 'dropped after processing',
    spec: { drop: 'after' },
    options: {},
    processedFirst: true,
    why: 'connection error after the state changed; the retry must not change it again',
  },
  {
    name: 'slower than the timeout',
    spec: { delayMs: 5_000 },
    options: { timeout: 1_000 },
    processedFirst: true,
    why: 'processed, then held past the 1 s attempt timeout; the retry must not change it again',
  },
];

interface Expected {
  /** `ok`, or the error class the caller gets. */
  result: string;
  held: 0 | 1;
  /** Times the server applied the write (replays excluded). */
  processed: number;
  /** HTTP requests on the write's route. */
  attempts: number;
}

const FAULT_ERROR: Record<string, string> = {
  '503': 'InternalServerError',
  '502': 'InternalServerError',
  '429 + Retry-After: 2': 'RateLimitError',
  'dropped before processing': 'APIConnectionError',
  'dropped after processing': 'APIConnectionError',
  'slower than the timeout': 'APITimeoutError',
};

/** What each cell must show, and so what the SDK promises a partner under that fault. */
function expected(write: WriteCase, fault: FaultCase): Expected {
  // Retried writes recover from one fault: a keyed POST is replayed by the key, a cancel is read back.
  if (write.retried) return { result: 'ok', held: 1, processed: 1, attempts: 2 };
  // An unretried write (none today) fails typed, holding the resource only if the server processed it.
  const result = FAULT_ERROR[fault.name] ?? '?';
  return fault.processedFirst
    ? { result, held: 1, processed: 1, attempts: 1 }
    : { result, held: 0, processed: 0, attempts: 1 };
}

type Outcome = Expected & { waits: number[] };

const describeError = (error: unknown) => (error instanceof Error ? error.constructor.name : typeof error);

/** Sends the write; waits (real time, bounded) until the fake logged every attempt the SDK reports. */
async function sendAndCount(
  env: ReliabilityEnv,
  write: WriteCase,
  ctx: Record<string, string>,
  options: RequestOptions,
) {
  const before = env.fake.requests.length;
  const sent = await write
    .send(env, ctx, options)
    .withResponse()
    .then(
      ({ response }) => ({ result: 'ok', attempts: response.attempts }),
      (error: unknown) => ({
        result: describeError(error),
        attempts: (error as { attempts?: number }).attempts ?? 0,
      }),
    );
  const mine = () =>
    env.fake.requests.slice(before).filter((r) => r.method === write.method && write.path.test(r.path));
  // Until the fake has logged every attempt the client made (30 s: a hang detector, not a speed check).
  for (const giveUpAt = Date.now() + 30_000; mine().length < sent.attempts && Date.now() < giveUpAt; )
    await new Promise((r) => setTimeout(r, 10));
  await env.fake.idle();
  const processed = mine().filter((r) => r.status >= 200 && r.status < 300 && r.replayed !== true).length;
  return { result: sent.result, attempts: mine().length, processed };
}

async function runCell(write: WriteCase, fault: FaultCase): Promise<Outcome> {
  const env: ReliabilityEnv = await startEnv({ client: { retry: { random: () => 0.5 } } });
  try {
    const ctx = await write.prepare(env);
    const waitsBefore = env.waits.length;
    env.fake.faults.inject({ match: { method: write.method, path: write.path }, times: 1, ...fault.spec });
    const first = await sendAndCount(env, write, ctx, fault.options);
    const outcome: Outcome = {
      ...first,
      held: write.held(env, ctx) as 0 | 1,
      waits: env.waits.slice(waitsBefore),
    };
    return outcome;
  } finally {
    await env.close();
  }
}

const outcomes = new Map<string, Outcome>();

describe.each(WRITES)('fault matrix: $name', (write) => {
  it.each(FAULTS)('$name', async (fault) => {
    const outcome = await runCell(write, fault);
    outcomes.set(`${write.name}|${fault.name}`, outcome);
    const { waits, ...seen } = outcome;
    expect(seen, `${write.name} under ${fault.name}`).toEqual(expected(write, fault));
    // 429: a retried write waited exactly what the server asked for, on the shared clock.
    if (write.retried && fault.spec.retryAfter !== undefined)
      expect(waits).toContain(Number(fault.spec.retryAfter) * 1000);
  });
});

function render(): string {
  const cell = (o: Outcome | undefined) => {
    if (o === undefined) return 'not run';
    const mark = o.result === 'ok' ? '✓ ok' : o.held === 0 ? `✗ ${o.result}` : `⚠ ${o.result}`;
    return `${mark}, ${o.held} held, ${o.attempts} attempt${o.attempts === 1 ? '' : 's'}`;
  };
  const lines = [
    '# Fault matrix',
    '',
    'Generated by `test/reliability/fault-matrix.test.ts` (each cell: a fresh fake API on a loopback socket,',
    "one injected fault on the write's own route, default client settings: 2 retries). Invariant: success with",
    'exactly one resource held (✓), or a typed error with none (✗). Uploads carry an Idempotency-Key too (the',
    'spec lists none for them; the SDK sends one so a retry is replayed, and a server ignoring it replaces the',
    'document in its single slot), so every write is retried and every cell holds.',
    '',
    `| write | ${FAULTS.map((f) => f.name).join(' | ')} |`,
    `| --- | ${FAULTS.map(() => '---').join(' | ')} |`,
    ...WRITES.map(
      (w) => `| ${w.name} | ${FAULTS.map((f) => cell(outcomes.get(`${w.name}|${f.name}`))).join(' | ')} |`,
    ),
    '',
    '## Why, per write',
    '',
    ...WRITES.map((w) => `- **${w.name}**: ${w.why}.`),
    '',
    '## Why, per fault',
    '',
    ...FAULTS.map((f) => `- **${f.name}**: ${f.why}.`),
    '',
  ];
  return lines.join('\n');
}

// Biome pads markdown table columns; compare the content, not the padding.
const normalise = (text: string) => text.replace(/ {2,}/g, ' ').replace(/-{3,}/g, '---');

afterAll(() => {
  if (outcomes.size !== WRITES.length * FAULTS.length) return; // a filtered run: nothing to compare
  const markdown = render();
  console.log(`\n${markdown}`);
  const file = new URL('./fault-matrix.md', import.meta.url);
  if (process.env['UPDATE_FAULT_MATRIX'] === '1') writeFileSync(file, markdown);
  else expect(normalise(readFileSync(file, 'utf8')), 'fault-matrix.md is stale').toBe(normalise(markdown));
});
