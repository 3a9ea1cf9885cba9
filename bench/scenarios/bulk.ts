import { fileURLToPath } from 'node:url';
import { type ContenderProcess, startContenderProcess } from '../lib/contender-process.js';
import { cpuRatio, interleave, pairedRatio } from '../lib/interleave.js';
import { atLeast, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';
import type { BulkChildSetup } from './bulk-child.js';

const SCENARIO = '5 bulk investors';
const CHILD = fileURLToPath(new URL('./bulk-child.ts', import.meta.url));
/** Issue 25's target: the SDK's throughput against raw undici's (client CPU per row is reported). */
const MIN_THROUGHPUT_RATIO = 0.9;
/** The SDK's defaults, used explicitly on both sides. */
const CHUNK_SIZE = 500;
const CONCURRENCY = 4;

/**
 * Scenario 5: 25,000 investors through `client.investors.create(rows, { chunkSize, concurrency })` against
 * raw undici posting the same 500-row chunks, 4 at a time, to the fake API in another process. Both send
 * an `Idempotency-Key` per chunk (the SDK derives one per chunk; the raw client sends a random one) so the
 * server does the same work; every round uses fresh `partnerInvestorId`s so every row is a `created`.
 *
 * Each contender runs in a process of its own (bulk-child.ts), their segments alternating in time: in one
 * shared process each paid for garbage the other left, unevenly (see the note below).
 */
export async function runBulk({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const server = await spawnFakeServer();
  const total = quick ? 2_000 : 25_000;
  const rounds = quick ? 1 : 25;
  const setup = (mode: BulkChildSetup['mode']): BulkChildSetup => ({
    mode,
    total,
    chunkSize: CHUNK_SIZE,
    concurrency: CONCURRENCY,
    partner: { ...server.partner },
  });
  const children: ContenderProcess[] = [];
  try {
    // One at a time, each kept as soon as it is up, so a failed start still closes the other.
    children.push(await startContenderProcess('sdk', CHILD, setup('sdk')));
    children.push(await startContenderProcess('raw undici', CHILD, setup('raw')));
    const [sdk, raw] = await interleave(children, rounds, {
      between: () => server.clearLog(),
      warmUps: quick ? 1 : 2,
      onSegment: (name, round, s) =>
        log(`  ${SCENARIO} round ${round + 1} ${name}: ${fmt((s.ops * 1000) / s.ms)} rows/s`),
    });
    return {
      rows: [
        atLeast(
          SCENARIO,
          `SDK / raw undici, ${total.toLocaleString('en')} rows`,
          pairedRatio(sdk!, raw!),
          MIN_THROUGHPUT_RATIO,
        ),
        reported(SCENARIO, 'client CPU per row, SDK / raw undici', fmt(cpuRatio(sdk!, raw!), 'x')),
        reported(
          SCENARIO,
          'rows/s SDK / raw undici',
          `${fmt(Math.round(sdk!.opsPerSecond))} / ${fmt(Math.round(raw!.opsPerSecond))}`,
        ),
        reported(
          SCENARIO,
          'client CPU µs/row SDK / raw undici',
          `${fmt(sdk!.cpuMicrosPerOp)} / ${fmt(raw!.cpuMicrosPerOp)}`,
        ),
      ],
      notes: [
        `Bulk: ${total.toLocaleString('en')} investors per contender and round, ${rounds} rounds after warm-ups, chunks of ${CHUNK_SIZE}, ${CONCURRENCY} in flight, against FakePartnerEquity in a separate process. The SDK also checks every row client-side and derives each chunk's idempotency key from its rows (SHA-256 of the chunk's JSON, the same text it sends); the raw client does neither. Each contender runs in a Node process of its own (bench/scenarios/bulk-child.ts, bench/lib/contender-process.ts), their segments alternating in time (the order alternating every round) so a slow patch of the machine weighs on both. "Client CPU" is that process's user+system CPU per row, counted from the end of its previous segment to the end of this one (garbage collection V8 left for later, done while the other contender ran, is charged to the process that made the garbage), totalled over all rounds; the throughput ratio is the median of per-round ratios. Why separate processes: when both contenders shared one process, each segment paid for collections brought about by the other's garbage, and unevenly: over 6 runs of that layout the CPU ratio read 1.14x to 1.80x, with raw undici at 2.9 to 4.8 µs a row, against about 4 to 5.5 for either client alone in a process; GC pauses timed per segment fell 9 or 11 times in the SDK's segments for 3 to 6 in raw's, with equal counts when each ran alone.`,
      ],
    };
  } finally {
    await Promise.all(children.map((child) => child.close()));
    await server.close();
  }
}
