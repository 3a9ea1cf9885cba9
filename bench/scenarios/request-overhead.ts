import { fileURLToPath } from 'node:url';
import { type ContenderProcess, startContenderProcess } from '../lib/contender-process.js';
import { type ContenderResult, cpuRatio, interleave, pairedRatio } from '../lib/interleave.js';
import { atLeast, atMost, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { captureSpvRequest } from '../server/capture-spv-request.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';
import { type ReplayServerProcess, spawnReplayServer } from '../server/spawn-replay-server.js';
import type { RequestOverheadMode, RequestOverheadSetup } from './request-overhead-child.js';

const SCENARIO = '1 request overhead';
const CHILD = fileURLToPath(new URL('./request-overhead-child.ts', import.meta.url));
const CONCURRENCY = 32;
/**
 * Issue 25's targets, judged on the replay server: throughput against a hand-written fetch client, and
 * client CPU per GET against the minimal validated client. The other ratios are reported: over a network
 * the round trip sets the pace (scenario 7).
 */
const MIN_FETCH_RATIO = 1.3;
const MAX_CPU_RATIO = 1.4;
/** In the order of the figures. */
const MODES: readonly RequestOverheadMode[] = ['sdk', 'sdk off', 'minimal validated', 'raw undici', 'fetch'];
/**
 * Untimed segments per contender before the rounds: in a process of its own, raw undici.request took about
 * 7 segments of 2,500 GETs to settle (client CPU per GET 80 to 170 µs, then about 50).
 */
const WARM_UPS = 8;

/** What one server is asked, and how. */
interface Target {
  label: string;
  baseUrl: string;
  /** The SDK contenders' credentials (their token comes from this server). */
  partner: RequestOverheadSetup['partner'];
  token: string;
  slug: string;
  /** Judge the issue's targets on this server (the replay server: the clients' own costs decide). */
  judged: boolean;
  between?: () => Promise<void>;
}

/** Interleaved rounds of the five contenders, each in a process of its own, against one server. */
async function compare(target: Target, { quick, log }: BenchContext) {
  const perSegment = quick ? 200 : 2_500;
  const rounds = quick ? 2 : 8;
  const contenders: ContenderProcess[] = [];
  const setup = (mode: RequestOverheadMode): RequestOverheadSetup => ({
    mode,
    baseUrl: target.baseUrl,
    partner: target.partner,
    token: target.token,
    slug: target.slug,
    perSegment,
    concurrency: CONCURRENCY,
  });
  try {
    for (const mode of MODES) contenders.push(await startContenderProcess(mode, CHILD, setup(mode)));
    const [sdk, off, minimal, raw, viaFetch] = (await interleave(contenders, rounds, {
      ...(target.between === undefined ? {} : { between: target.between }),
      warmUps: quick ? 1 : WARM_UPS,
      onSegment: (name, round, s) =>
        log(`  ${SCENARIO} ${target.label} round ${round + 1} ${name}: ${fmt((s.ops * 1000) / s.ms)} req/s`),
    })) as [ContenderResult, ContenderResult, ContenderResult, ContenderResult, ContenderResult];
    const all = [sdk, off, minimal, raw, viaFetch];
    const on = `(${target.label})`;
    // The targets hold on the replay server; on the fake the server sets the pace (see the notes).
    const judge = (figure: string, value: number, bound: number, better: 'higher' | 'lower') =>
      !target.judged
        ? reported(SCENARIO, figure, fmt(value, 'x'))
        : better === 'higher'
          ? atLeast(SCENARIO, figure, value, bound)
          : atMost(SCENARIO, figure, value, bound, 'x');
    return {
      rows: [
        judge(`SDK / fetch client throughput ${on}`, pairedRatio(sdk, viaFetch), MIN_FETCH_RATIO, 'higher'),
        judge(
          `SDK / minimal validated client CPU per GET ${on}`,
          cpuRatio(sdk, minimal),
          MAX_CPU_RATIO,
          'lower',
        ),
        reported(
          SCENARIO,
          `SDK / minimal validated client throughput ${on}`,
          fmt(pairedRatio(sdk, minimal), 'x'),
        ),
        reported(
          SCENARIO,
          `SDK responseValidation 'off' / raw undici throughput ${on}`,
          fmt(pairedRatio(off, raw), 'x'),
        ),
        reported(SCENARIO, `SDK / raw undici throughput ${on}`, fmt(pairedRatio(sdk, raw), 'x')),
        reported(
          SCENARIO,
          `req/s SDK / SDK off / minimal validated / undici / fetch ${on}`,
          all.map((r) => fmt(Math.round(r.opsPerSecond))).join(' / '),
        ),
        reported(
          SCENARIO,
          `client CPU µs/request SDK / SDK off / minimal validated / undici / fetch ${on}`,
          all.map((r) => fmt(r.cpuMicrosPerOp)).join(' / '),
        ),
      ],
      total: perSegment * rounds,
      perSegment,
      rounds,
    };
  } finally {
    await Promise.all(contenders.map((contender) => contender.close()));
  }
}

/**
 * Scenario 1: `client.spvRequests.get(slug)` against the same GET done by hand, at concurrency 32, against
 * a server in another process. Contenders, each in a process of its own, in interleaved rounds:
 * - SDK: a default client (undici keep-alive agent, zod-parsed response, retries armed, cached token);
 * - SDK off: the same client made with `responseValidation: 'off'` (JSON.parse, no schema);
 * - minimal validated: `undici.request` with a `new URL` per call, an `AbortController` signal and the
 *   SDK's own `SpvRequest` schema parsed once: the floor for a client that validates responses;
 * - raw undici: `undici.request` on its own keep-alive `Agent` with the bearer header, `JSON.parse`;
 * - fetch: global `fetch` with the bearer header, `response.json()`.
 * Every contender checks the status and reads the slug, so none can skip work. Two servers: the fake API
 * itself, and a replay server answering with the fake's captured responses (see replay-server.ts).
 */
export async function runRequestOverhead(context: BenchContext): Promise<ScenarioResult> {
  const fake = await spawnFakeServer();
  let replay: ReplayServerProcess | undefined;
  try {
    const { slug, token, replay: routes, bodyBytes } = await captureSpvRequest(fake);
    replay = await spawnReplayServer(routes);

    const onFake = await compare(
      {
        label: 'fake server',
        baseUrl: fake.baseUrl,
        partner: fake.partner,
        token,
        slug,
        judged: false,
        between: () => fake.clearLog(),
      },
      context,
    );
    const onReplay = await compare(
      {
        label: 'replay server',
        baseUrl: replay.baseUrl,
        partner: fake.partner,
        token,
        slug,
        judged: true,
      },
      context,
    );
    const { total, perSegment, rounds } = onFake;
    return {
      rows: [...onFake.rows, ...onReplay.rows],
      notes: [
        `Request overhead: GET ${'/v1/spv-requests/{slug}'} of an approved request (${bodyBytes} bytes of JSON), ${total.toLocaleString('en')} timed requests per contender and server (${rounds} interleaved rounds, the order rotated each round, of ${perSegment.toLocaleString('en')}, after warm-ups), concurrency ${CONCURRENCY}. Each contender runs in a Node process of its own (bench/scenarios/request-overhead-child.ts, bench/lib/contender-process.ts), one at a time, so none pays for collections of another's garbage (a fetch client leaves much). Servers run in their own process: "fake server" is FakePartnerEquity's loopback server (real routing, token check, state; it saturates one core at roughly a thousand requests a second, which caps every contender alike and compresses the ratios toward 1); "replay server" is a bare node:http server answering with the fake's captured response after the same bearer check, so the clients' own costs decide the throughput. Contenders: the SDK (default client, responseValidation 'warn'), the same client made with responseValidation 'off', the minimal validated client (undici.request, a new URL per call, an AbortController signal, the SDK's own SpvRequest schema parsed once: the floor for a client that validates), raw undici (a URL built once, no signal, JSON.parse) and a hand-written fetch client. Issue 25's targets (SDK >= ${MIN_FETCH_RATIO}x the fetch client's throughput, <= ${MAX_CPU_RATIO}x the minimal validated client's client CPU per GET) are judged on the replay server, the other ratios reported; the fake-server rows are reported without targets, since that server sets the pace. Throughput ratios are medians of per-round ratios; CPU figures are totals over all rounds (CPU over requests), each counted from the end of the contender's previous segment, so it pays for the garbage collections its own allocations bring about wherever they fall. "Client CPU" is the contender process's user+system CPU per request: each client's own cost, without the server's.`,
      ],
    };
  } finally {
    await replay?.close();
    await fake.close();
  }
}
