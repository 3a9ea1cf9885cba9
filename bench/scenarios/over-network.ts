import { fileURLToPath } from 'node:url';
import { type ContenderProcess, startContenderProcess } from '../lib/contender-process.js';
import { type ContenderResult, interleave, medianMs, pairedRatio } from '../lib/interleave.js';
import { atLeast, type BenchContext, fmt, reported, type ScenarioResult, seconds } from '../lib/result.js';
import { captureSpvRequest } from '../server/capture-spv-request.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';
import { type ReplayServerProcess, spawnReplayServer } from '../server/spawn-replay-server.js';
import type { BulkChildSetup } from './bulk-child.js';
import { CONCURRENCIES, type SweepCell, sweepBulk } from './bulk-sweep.js';
import type { RequestOverheadMode, RequestOverheadSetup } from './request-overhead-child.js';

const SCENARIO = '7 over a network';
const GET_CHILD = fileURLToPath(new URL('./request-overhead-child.ts', import.meta.url));
const BULK_CHILD = fileURLToPath(new URL('./bulk-child.ts', import.meta.url));
/** How long the replay server waits before each answer: a service in a nearby region. */
const DELAY_MS = 40;
/** Issue 25's targets: what a partner notices over a network. */
const MIN_GET_RATIO = 0.98;
/**
 * Held at 0.95x: a quiet run read 0.91x once the loopback tricks were gone (issue 48), then 0.96x with
 * stable JSON's plain copies and uncoded bodies read without `stream.pipeline` (bench findings).
 */
const MIN_IMPORT_RATIO = 0.95;
/** The SDK's bulk defaults, passed explicitly to both import contenders. */
const DEFAULTS = { chunkSize: 500, concurrency: 4 } as const;

/**
 * Scenario 7: the SDK as a partner sees it, against a replay server that answers after {@link DELAY_MS}
 * (real timers). Side by side, each contender in a process of its own, segments alternating: 200 sequential
 * `client.spvRequests.get(slug)` against raw `undici.request` on a keep-alive Agent, and a 25,000-row
 * `client.investors.create` against a hand-written undici client with the same chunks and concurrency.
 * Then a sweep of chunk size × concurrency for the SDK's import, to weigh the bulk defaults.
 */
export async function runOverNetwork({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const gets = quick ? 10 : 200;
  const getRounds = quick ? 1 : 3;
  const rows = quick ? 1_000 : 25_000;
  const importRounds = quick ? 1 : 9;
  const sweepRows = quick ? 1_000 : 25_000;
  const fake = await spawnFakeServer();
  const partner = fake.partner;
  let replay: ReplayServerProcess | undefined;
  const children: ContenderProcess[] = [];
  try {
    const spv = await captureSpvRequest(fake);
    // The fake only supplies the captured answers; it is closed before anything is timed.
    await fake.close();
    replay = await spawnReplayServer({ ...spv.replay, delayMs: DELAY_MS, investors: true });
    const baseUrl = replay.baseUrl;

    const getSetup = (mode: RequestOverheadMode): RequestOverheadSetup => ({
      mode,
      baseUrl,
      partner: { clientId: partner.clientId, issuer: partner.issuer, privateKey: partner.privateKey },
      token: spv.token,
      slug: spv.slug,
      perSegment: gets,
      concurrency: 1,
      warmUp: quick ? 1 : 10,
    });
    // One at a time, each kept as soon as it is up, so a failed start still closes the others.
    children.push(await startContenderProcess('sdk', GET_CHILD, getSetup('sdk')));
    children.push(await startContenderProcess('raw undici', GET_CHILD, getSetup('raw undici')));
    const [sdkGet, rawGet] = (await interleave(children, getRounds, {
      warmUps: 0,
      onSegment: (name, round, s) => log(`  ${SCENARIO} GETs round ${round + 1} ${name}: ${seconds(s.ms)}`),
    })) as [ContenderResult, ContenderResult];
    await Promise.all(children.splice(0).map((child) => child.close()));

    const bulkSetup = (mode: BulkChildSetup['mode']): BulkChildSetup => ({
      mode,
      total: rows,
      ...DEFAULTS,
      partner: { ...partner, baseUrl },
    });
    children.push(await startContenderProcess('sdk', BULK_CHILD, bulkSetup('sdk')));
    children.push(await startContenderProcess('raw undici', BULK_CHILD, bulkSetup('raw')));
    // Two warm-ups, as in scenario 5: after one, the SDK's first timed import still ran cold.
    const [sdkImport, rawImport] = (await interleave(children, importRounds, {
      warmUps: quick ? 1 : 2,
      onSegment: (name, round, s) => log(`  ${SCENARIO} import round ${round + 1} ${name}: ${seconds(s.ms)}`),
    })) as [ContenderResult, ContenderResult];
    await Promise.all(children.splice(0).map((child) => child.close()));

    const sweep = await sweepBulk({ ...partner, baseUrl }, { total: sweepRows, passes: 1, log });
    const n = (value: number) => value.toLocaleString('en');
    return {
      rows: [
        atLeast(
          SCENARIO,
          `SDK / raw undici throughput, ${n(gets)} sequential GETs`,
          pairedRatio(sdkGet, rawGet),
          MIN_GET_RATIO,
        ),
        reported(
          SCENARIO,
          `wall time of ${n(gets)} sequential GETs, SDK / raw undici (median)`,
          `${seconds(medianMs(sdkGet))} / ${seconds(medianMs(rawGet))}`,
        ),
        atLeast(
          SCENARIO,
          `SDK / hand-written undici throughput, ${n(rows)}-row import (${DEFAULTS.chunkSize} × ${DEFAULTS.concurrency})`,
          pairedRatio(sdkImport, rawImport),
          MIN_IMPORT_RATIO,
        ),
        reported(
          SCENARIO,
          `wall time of the ${n(rows)}-row import, SDK / hand-written undici (median)`,
          `${seconds(medianMs(sdkImport))} / ${seconds(medianMs(rawImport))}`,
        ),
        reported(
          SCENARIO,
          `client CPU µs/row of the ${n(rows)}-row import, SDK / hand-written undici`,
          `${fmt(sdkImport.cpuMicrosPerOp)} / ${fmt(rawImport.cpuMicrosPerOp)}`,
        ),
        ...sweepTable(sweep, n(sweepRows)),
      ],
      notes: [
        `Over a network: a replay server (bench/server/replay-server.ts) answers every request after ${DELAY_MS} ms (setTimeout, after reading the request body), as a service in a nearby region would; GETs with the fake's captured answer, investor chunks with one \`created\` result per row in order, as the fake answers new rows. The fake only supplies the captured answers and is closed before timing. GETs: ${n(gets)} sequential \`client.spvRequests.get(slug)\` per segment against raw \`undici.request\` on a keep-alive Agent (bench/scenarios/request-overhead-child.ts, concurrency 1, ${getSetup('sdk').warmUp} untimed GETs each first), ${getRounds} interleaved rounds. Import: ${n(rows)} rows per segment through \`client.investors.create\` against a hand-written undici client (bench/scenarios/bulk-child.ts) with the same ${DEFAULTS.chunkSize}-row chunks, ${DEFAULTS.concurrency} in flight, ${importRounds} rounds after warm-ups. Each contender runs in a process of its own; throughput ratios are medians of per-round ratios. Sweep: the SDK alone in the scenario's process, one ${n(sweepRows)}-row import per cell after an untimed one. With ${DELAY_MS} ms a request the wall time is about the number of request waves (rows ÷ (chunkSize × concurrency)) times ${DELAY_MS} ms; the replay server answers a chunk in about a millisecond, a real service may not, and its rate limits are not shown by the spec.`,
      ],
    };
  } finally {
    await Promise.all(children.map((child) => child.close()));
    await replay?.close();
    await fake.close();
  }
}

/**
 * One row per chunk size (wall time at each concurrency), then the recommendation: keep the defaults,
 * set beside half their concurrency and the fastest cell. Over a network the wall time follows the
 * request waves, so more rows in flight buy tenths of a second per 25,000 rows while loading a service
 * whose rate limits the spec does not show; the figures say what the trade is on this run.
 */
function sweepTable(sweep: readonly SweepCell[], rows: string) {
  const sizes = [...new Set(sweep.map((cell) => cell.chunkSize))];
  const cell = (chunkSize: number, concurrency: number) =>
    sweep.find((c) => c.chunkSize === chunkSize && c.concurrency === concurrency);
  const fastest = sweep.reduce((best, c) => (c.ms < best.ms ? c : best));
  const defaults = cell(DEFAULTS.chunkSize, DEFAULTS.concurrency)!;
  const halfInFlight = cell(DEFAULTS.chunkSize, DEFAULTS.concurrency / 2)!;
  return [
    ...sizes.map((size) =>
      reported(
        SCENARIO,
        `sweep, ${rows} rows, chunkSize ${size}: wall time at concurrency ${CONCURRENCIES.join(' / ')}`,
        `${CONCURRENCIES.map((c) => (cell(size, c)!.ms / 1000).toFixed(2)).join(' / ')} s`,
      ),
    ),
    reported(
      SCENARIO,
      'sweep: recommendation',
      `keep ${DEFAULTS.chunkSize} × ${DEFAULTS.concurrency} (${seconds(defaults.ms)}); ${DEFAULTS.chunkSize} × ${halfInFlight.concurrency} takes ${seconds(halfInFlight.ms)}; the fastest cell, ${fastest.chunkSize} × ${fastest.concurrency}, ${seconds(fastest.ms)} with ${fmt((fastest.chunkSize * fastest.concurrency) / (DEFAULTS.chunkSize * DEFAULTS.concurrency))}x the rows in flight`,
    ),
  ];
}
