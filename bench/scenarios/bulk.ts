import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { importSdk } from '../lib/build-sdk.js';
import { investorRows } from '../lib/fixtures.js';
import { type Contender, cpuRatio, interleave, pairedRatio, pool } from '../lib/interleave.js';
import { rawAccessToken } from '../lib/raw-token.js';
import { atLeast, atMost, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';

const SCENARIO = '5 bulk investors';
/** Issue 17's targets: the SDK's throughput against raw undici's, and its client CPU per row against raw's. */
const MIN_THROUGHPUT_RATIO = 0.95;
const MAX_CPU_RATIO = 1.5;
/** The SDK's defaults, used explicitly on both sides. */
const CHUNK_SIZE = 500;
const CONCURRENCY = 4;

/**
 * Scenario 5: 25,000 investors through `client.investors.create(rows, { chunkSize, concurrency })` against
 * raw undici posting the same 500-row chunks, 4 at a time, to the fake API in another process. Both send
 * an `Idempotency-Key` per chunk (the SDK derives one per chunk; the raw client sends a random one) so the
 * server does the same work; every round uses fresh `partnerInvestorId`s so every row is a `created`.
 */
export async function runBulk({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const { PartnerEquity } = await importSdk();
  const server = await spawnFakeServer();
  const client = new PartnerEquity({ ...server.partner });
  const agent = new Agent();
  try {
    const total = quick ? 2_000 : 25_000;
    const rounds = quick ? 1 : 15;
    const url = new URL('/v1/investors', server.baseUrl);
    const authorization = `Bearer ${await rawAccessToken(server.partner)}`;
    let batch = 0;
    const freshRows = (who: string) => investorRows(total, `${who}-${batch++}`);

    const contenders: Contender[] = [
      {
        name: 'sdk',
        segment: async () => {
          const result = await client.investors.create(freshRows('sdk'), {
            chunkSize: CHUNK_SIZE,
            concurrency: CONCURRENCY,
          });
          if (result.succeeded.length !== total) throw new Error(`${result.failed.length} rows failed`);
          return { ops: total };
        },
      },
      {
        name: 'raw undici',
        segment: async () => {
          const rows = freshRows('raw');
          const chunks = Array.from({ length: Math.ceil(rows.length / CHUNK_SIZE) }, (_, i) =>
            rows.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
          );
          let created = 0;
          await pool(chunks.length, CONCURRENCY, async (i) => {
            const response = await request(url, {
              method: 'POST',
              headers: {
                authorization,
                'content-type': 'application/json',
                'idempotency-key': randomUUID(),
              },
              body: JSON.stringify({ investors: chunks[i] }),
              dispatcher: agent,
            });
            const text = await response.body.text();
            if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
            const { results } = JSON.parse(text) as { results: { servicePersonId?: string }[] };
            created += results.filter((r) => r.servicePersonId !== undefined).length;
          });
          if (created !== total) throw new Error(`${total - created} rows failed`);
          return { ops: total };
        },
      },
    ];
    const [sdk, raw] = await interleave(contenders, rounds, {
      between: () => server.clearLog(),
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
        atMost(SCENARIO, 'client CPU per row, SDK / raw undici', cpuRatio(sdk!, raw!), MAX_CPU_RATIO, 'x'),
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
        `Bulk: ${total.toLocaleString('en')} investors per contender and round, ${rounds} interleaved rounds (the order alternating) after a warm-up each, chunks of ${CHUNK_SIZE}, ${CONCURRENCY} in flight, against FakePartnerEquity in a separate process. The SDK also checks every row client-side and derives each chunk's idempotency key from its rows (SHA-256 of the chunk's JSON, the same text it sends); the raw client does neither. "Client CPU" is the benchmark process's user+system CPU per row (the fake runs in its own process); CPU figures are totals over all rounds (CPU over rows): garbage collections land in about half of each contender's segments, and a median of per-round ratios moved with where they fell (see cpuRatio in bench/lib/interleave.ts); the throughput ratio is the median of per-round ratios.`,
      ],
    };
  } finally {
    await client.close();
    await agent.close();
    await server.close();
  }
}
