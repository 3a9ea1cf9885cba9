import { Agent, request } from 'undici';
import { importSdk } from '../lib/build-sdk.js';
import { spvBody } from '../lib/fixtures.js';
import { type Contender, interleave, pairedRatio, pool } from '../lib/interleave.js';
import { rawTokenResponse } from '../lib/raw-token.js';
import { atLeast, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';
import { capture, type ReplayServerProcess, spawnReplayServer } from '../server/spawn-replay-server.js';

const SCENARIO = '1 request overhead';
const CONCURRENCY = 32;

/** What one server is asked, and how. */
interface Target {
  label: string;
  baseUrl: string;
  /** The client the SDK contender uses (its token comes from this server). */
  client: InstanceType<Awaited<ReturnType<typeof importSdk>>['PartnerEquity']>;
  token: string;
  slug: string;
  between?: () => Promise<void>;
}

/** Interleaved rounds of the three contenders against one server. */
async function compare(target: Target, { quick, log }: BenchContext) {
  const { client, slug } = target;
  const agent = new Agent();
  const url = new URL(`/v1/spv-requests/${encodeURIComponent(slug)}`, target.baseUrl);
  const authorization = `Bearer ${target.token}`;
  const perSegment = quick ? 200 : 2_500;
  const rounds = quick ? 2 : 8;
  const expectSlug = (body: { spvRequestSlug?: unknown }) => {
    if (body.spvRequestSlug !== slug) throw new Error('wrong SPV request');
  };
  const contenders: Contender[] = [
    {
      name: 'sdk',
      segment: async () => ({
        ops: await pool(perSegment, CONCURRENCY, async () => expectSlug(await client.spvRequests.get(slug))),
      }),
    },
    {
      name: 'raw undici',
      segment: async () => ({
        ops: await pool(perSegment, CONCURRENCY, async () => {
          const response = await request(url, { headers: { authorization }, dispatcher: agent });
          const text = await response.body.text();
          if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
          expectSlug(JSON.parse(text));
        }),
      }),
    },
    {
      name: 'fetch',
      segment: async () => ({
        ops: await pool(perSegment, CONCURRENCY, async () => {
          const response = await fetch(url, { headers: { authorization } });
          const body = (await response.json()) as { spvRequestSlug?: unknown };
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          expectSlug(body);
        }),
      }),
    },
  ];
  try {
    const [sdk, raw, viaFetch] = await interleave(contenders, rounds, {
      ...(target.between === undefined ? {} : { between: target.between }),
      onSegment: (name, round, s) =>
        log(`  ${SCENARIO} ${target.label} round ${round + 1} ${name}: ${fmt((s.ops * 1000) / s.ms)} req/s`),
    });
    const all = [sdk!, raw!, viaFetch!];
    return {
      rows: [
        atLeast(SCENARIO, `SDK / raw undici throughput (${target.label})`, pairedRatio(sdk!, raw!), 0.9),
        atLeast(
          SCENARIO,
          `SDK / fetch client throughput (${target.label})`,
          pairedRatio(sdk!, viaFetch!),
          1.5,
        ),
        reported(
          SCENARIO,
          `req/s SDK / undici / fetch (${target.label})`,
          all.map((r) => fmt(Math.round(r.opsPerSecond))).join(' / '),
        ),
        reported(
          SCENARIO,
          `client CPU µs/request SDK / undici / fetch (${target.label})`,
          all.map((r) => fmt(r.cpuMicrosPerOp)).join(' / '),
        ),
      ],
      total: perSegment * rounds,
      perSegment,
      rounds,
    };
  } finally {
    await agent.close();
  }
}

/**
 * Scenario 1: `client.spvRequests.get(slug)` against the same GET done by hand, at concurrency 32, against
 * a server in another process. Contenders, in interleaved rounds:
 * - SDK: a default client (undici keep-alive agent, zod-parsed response, retries armed, cached token);
 * - raw undici: `undici.request` on its own keep-alive `Agent` with the bearer header, `JSON.parse`;
 * - fetch: global `fetch` with the bearer header, `response.json()`.
 * Every contender checks the status and reads the slug, so none can skip work. Two servers: the fake API
 * itself, and a replay server answering with the fake's captured responses (see replay-server.ts).
 */
export async function runRequestOverhead(context: BenchContext): Promise<ScenarioResult> {
  const { PartnerEquity } = await importSdk();
  const fake = await spawnFakeServer();
  const fakeClient = new PartnerEquity({ ...fake.partner });
  let replay: ReplayServerProcess | undefined;
  let replayClient: typeof fakeClient | undefined;
  try {
    const created = await fakeClient.spvRequests.create(await spvBody(fakeClient));
    await fake.approveSpvRequest(created.spvRequestSlug);
    const slug = created.spvRequestSlug;
    const path = `/v1/spv-requests/${encodeURIComponent(slug)}`;
    const tokenResponse = await rawTokenResponse(fake.partner);
    const token = (JSON.parse(tokenResponse.body) as { accessToken: string }).accessToken;
    const captured = await capture(fake.baseUrl, path, token);
    replay = await spawnReplayServer({
      token,
      routes: { [`GET ${path}`]: captured, 'POST /v1/oauth2/tokens': tokenResponse },
      publicRoutes: ['POST /v1/oauth2/tokens'],
    });
    replayClient = new PartnerEquity({ ...fake.partner, baseUrl: replay.baseUrl });

    const onFake = await compare(
      {
        label: 'fake server',
        baseUrl: fake.baseUrl,
        client: fakeClient,
        token,
        slug,
        between: () => fake.clearLog(),
      },
      context,
    );
    const onReplay = await compare(
      { label: 'replay server', baseUrl: replay.baseUrl, client: replayClient, token, slug },
      context,
    );
    const { total, perSegment, rounds } = onFake;
    return {
      rows: [...onFake.rows, ...onReplay.rows],
      notes: [
        `Request overhead: GET ${'/v1/spv-requests/{slug}'} of an approved request (${captured.body.length} bytes of JSON), ${total.toLocaleString('en')} timed requests per contender and server (${rounds} interleaved rounds of ${perSegment.toLocaleString('en')}, after one warm-up segment each), concurrency ${CONCURRENCY}. Servers run in their own process: "fake server" is FakePartnerEquity's loopback server (real routing, token check, state; it saturates one core at roughly a thousand requests a second, which caps every contender alike and compresses the ratios toward 1); "replay server" is a bare node:http server answering with the fake's captured response after the same bearer check, so the clients' own costs decide the throughput. Ratios are medians of per-round ratios. "Client CPU" is the benchmark process's user+system CPU per request: each client's own cost, without the server's.`,
      ],
    };
  } finally {
    await fakeClient.close();
    await replayClient?.close();
    await replay?.close();
    await fake.close();
  }
}
