import { fileURLToPath } from 'node:url';
import { interleaveInSets, startContenderProcess } from '../lib/contender-process.js';
import { type ContenderResult, cpuRatio, mergeSets, pairedRatio } from '../lib/interleave.js';
import { atMost, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { median } from '../lib/stats.js';
import { captureSpvRequest } from '../server/capture-spv-request.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';
import { spawnReplayServer } from '../server/spawn-replay-server.js';
import type { RequestOverheadMode, RequestOverheadSetup } from './request-overhead-child.js';

const SCENARIO = '9 tracing overhead';
const CHILD = fileURLToPath(new URL('./request-overhead-child.ts', import.meta.url));
const CONCURRENCY = 32;
const MODES: readonly RequestOverheadMode[] = ['sdk', 'sdk otel no provider', 'sdk traced'];
/** Issue 30: with no provider, tracing costs nothing measurable (client CPU per GET within noise). */
const MAX_NO_PROVIDER_CPU_RATIO = 1.1;
const WARM_UPS = 8;

/**
 * Scenario 9 (issue 30): scenario 1's SDK GET against the replay server, three ways, side by side: no
 * OpenTelemetry set up (the SDK does not even load the API); the API with a context manager but no tracer
 * provider; and a global `BasicTracerProvider` with a batch processor and an exporter that drops every span.
 */
export async function runTracingOverhead({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const fake = await spawnFakeServer();
  const perSegment = quick ? 200 : 2_500;
  const sets = quick ? 1 : 5;
  const rounds = quick ? 2 : 6;
  try {
    const { slug, token, replay: routes } = await captureSpvRequest(fake);
    const replay = await spawnReplayServer(routes);
    try {
      let set = 0;
      const results = await interleaveInSets(
        sets,
        async (children) => {
          set += 1;
          for (const mode of MODES) {
            const setup: RequestOverheadSetup = {
              mode,
              baseUrl: replay.baseUrl,
              partner: fake.partner,
              token,
              slug,
              perSegment,
              concurrency: CONCURRENCY,
            };
            children.push(await startContenderProcess(mode, CHILD, setup));
          }
        },
        rounds,
        {
          warmUps: quick ? 1 : WARM_UPS,
          onSegment: (name, round, s) =>
            log(`  ${SCENARIO} set ${set} round ${round + 1} ${name}: ${fmt((s.ops * 1000) / s.ms)} req/s`),
        },
      );
      const perSet = results.map(([plainSet, apiSet]) => cpuRatio(apiSet!, plainSet!));
      const [plain, apiOnly, traced] = mergeSets(results) as [
        ContenderResult,
        ContenderResult,
        ContenderResult,
      ];
      const all = [plain, apiOnly, traced];
      return {
        rows: [
          atMost(
            SCENARIO,
            `client CPU per GET, API without provider / no OpenTelemetry (replay server; median of ${sets} sets of processes)`,
            median(perSet),
            MAX_NO_PROVIDER_CPU_RATIO,
            'x',
          ),
          reported(
            SCENARIO,
            'client CPU per GET, API without provider / no OpenTelemetry, each set',
            perSet.map((r) => fmt(r, 'x')).join(' / '),
          ),
          reported(
            SCENARIO,
            'throughput, traced (no-op exporter) / no OpenTelemetry (replay server)',
            fmt(pairedRatio(traced, plain), 'x'),
          ),
          reported(
            SCENARIO,
            'client CPU per GET, traced (no-op exporter) / no OpenTelemetry (replay server)',
            fmt(cpuRatio(traced, plain), 'x'),
          ),
          reported(
            SCENARIO,
            'req/s no OpenTelemetry / API without provider / traced',
            all.map((r) => fmt(Math.round(r.opsPerSecond))).join(' / '),
          ),
          reported(
            SCENARIO,
            'client CPU µs/GET no OpenTelemetry / API without provider / traced',
            all.map((r) => fmt(r.cpuMicrosPerOp)).join(' / '),
          ),
        ],
        notes: [
          `Tracing overhead (issue 30): scenario 1's SDK contender (GET /v1/spv-requests/{slug}, concurrency ${CONCURRENCY}, replay server) in three processes of its own, ${rounds} interleaved rounds of ${perSegment.toLocaleString('en')} in each of ${sets} sets of fresh processes (the judged ratio is the median over sets: a process keeps the GC steady state it settled in for its life, bench findings "GC modes", and one set's ratio read 0.74x to 1.21x on the same code): with no OpenTelemetry set up (the SDK never loads @opentelemetry/api: its global registry does not exist); with the API's AsyncLocalStorage context manager registered but no tracer provider (the API is loaded on the first call; each call starts a non-recording span and drops it); and with a global BasicTracerProvider, a BatchSpanProcessor and an exporter that drops every span (the cost of recording one CLIENT span per call, its attributes and their redaction). Compare the first column with scenario 1's SDK row of the same run.`,
        ],
      };
    } finally {
      await replay.close();
    }
  } finally {
    await fake.close();
  }
}
