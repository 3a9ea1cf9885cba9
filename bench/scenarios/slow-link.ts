import { fileURLToPath } from 'node:url';
import { type ContenderProcess, startContenderProcess } from '../lib/contender-process.js';
import { type ContenderResult, interleave, medianMs, pairedRatio } from '../lib/interleave.js';
import { atLeast, type BenchContext, fmt, reported, type ScenarioResult, seconds } from '../lib/result.js';
import { captureSpvRequest } from '../server/capture-spv-request.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';
import { type ReplayServerProcess, spawnReplayServer } from '../server/spawn-replay-server.js';
import type { BulkChildSetup } from './bulk-child.js';

const SCENARIO = '10 over a slow link';
const BULK_CHILD = fileURLToPath(new URL('./bulk-child.ts', import.meta.url));
/** The link: 20 Mbit/s down, shared by every connection, 40 ms before each answer (as scenario 7). */
const MBIT_PER_SECOND = 20;
const DELAY_MS = 40;
/**
 * Issue 34's target: the SDK is not slower than a hand-written fetch client (which gets gzip from fetch),
 * though it checks every row and derives every chunk's key where that client does neither. Kept after
 * issue 48's removals (bench findings, "Bulk import guards"): a quiet run read 0.95x, then 0.99x.
 */
const MIN_IMPORT_RATIO = 1.0;
const DEFAULTS = { chunkSize: 500, concurrency: 4 } as const;

/**
 * Scenario 10: a bulk import whose answers cross a bandwidth-limited link. The replay server gzips an answer
 * when the request asks for it and sends every answer through one {@link MBIT_PER_SECOND} Mbit/s link, after
 * {@link DELAY_MS} ms. A 25,000-row `client.investors.create` against a hand-written `fetch` client with the
 * same chunks and concurrency, each in a process of its own, segments alternating.
 */
export async function runSlowLink({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const rows = quick ? 1_000 : 25_000;
  const rounds = quick ? 1 : 15;
  const fake = await spawnFakeServer();
  const partner = fake.partner;
  let replay: ReplayServerProcess | undefined;
  const children: ContenderProcess[] = [];
  try {
    const spv = await captureSpvRequest(fake);
    await fake.close();
    const bytesPerSecond = (MBIT_PER_SECOND * 1_000_000) / 8;
    replay = await spawnReplayServer({
      ...spv.replay,
      delayMs: DELAY_MS,
      investors: true,
      gzip: true,
      bytesPerSecond,
    });
    const setup = (mode: BulkChildSetup['mode']): BulkChildSetup => ({
      mode,
      total: rows,
      ...DEFAULTS,
      partner: { ...partner, baseUrl: replay!.baseUrl },
    });
    children.push(await startContenderProcess('sdk', BULK_CHILD, setup('sdk')));
    children.push(await startContenderProcess('fetch', BULK_CHILD, setup('fetch')));
    children.push(await startContenderProcess('raw undici', BULK_CHILD, setup('raw')));
    const [sdk, fetchClient, raw] = (await interleave(children, rounds, {
      warmUps: quick ? 1 : 2,
      onSegment: (name, round, s) => log(`  ${SCENARIO} import round ${round + 1} ${name}: ${seconds(s.ms)}`),
    })) as [ContenderResult, ContenderResult, ContenderResult];
    const n = rows.toLocaleString('en');
    return {
      rows: [
        atLeast(
          SCENARIO,
          `SDK / hand-written fetch throughput, ${n}-row import at ${MBIT_PER_SECOND} Mbit/s`,
          pairedRatio(sdk, fetchClient),
          MIN_IMPORT_RATIO,
        ),
        reported(
          SCENARIO,
          `wall time of the ${n}-row import, SDK / hand-written fetch / undici without Accept-Encoding (median)`,
          `${seconds(medianMs(sdk))} / ${seconds(medianMs(fetchClient))} / ${seconds(medianMs(raw))}`,
        ),
        reported(
          SCENARIO,
          'client CPU µs/row SDK / hand-written fetch / undici without Accept-Encoding',
          [sdk, fetchClient, raw].map((c) => fmt(c.cpuMicrosPerOp)).join(' / '),
        ),
      ],
      notes: [
        `Over a slow link: the replay server (bench/server/replay-server.ts) answers each request after ${DELAY_MS} ms and sends every answer in 16 KiB slices through one link of ${MBIT_PER_SECOND} Mbit/s shared by all connections, gzipped when the request's Accept-Encoding names gzip (as a gateway would). Request bodies are not slowed (both clients send the same ones). ${n} rows per segment through \`client.investors.create\` against a hand-written client on the global \`fetch\` (bench/scenarios/bulk-child.ts, mode \`fetch\`: fetch asks for gzip and decodes it), ${DEFAULTS.chunkSize}-row chunks, ${DEFAULTS.concurrency} in flight, ${rounds} rounds after warm-ups, each contender in a process of its own; the ratio is the median of per-round ratios. A third contender, hand-written \`undici.request\` (mode \`raw\`), asks for no encoding and so receives every answer uncompressed, as the SDK did before issue 34.`,
      ],
    };
  } finally {
    await Promise.all(children.map((child) => child.close()));
    await replay?.close();
    await fake.close();
  }
}
