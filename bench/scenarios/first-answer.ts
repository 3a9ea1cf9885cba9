import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { distUrl } from '../lib/build-sdk.js';
import { atMost, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { median } from '../lib/stats.js';
import { captureSpvRequest } from '../server/capture-spv-request.js';
import type { CapturedResponse } from '../server/protocol.js';
import { spawnFakeServer } from '../server/spawn-fake-server.js';
import { type ReplayServerProcess, spawnReplayServer } from '../server/spawn-replay-server.js';

const run = promisify(execFile);
const SCENARIO = '12 first answer';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Issue 48: process start to the first answer at or below the anchors' median. */
const MAX_RATIO = 1;

/** What one measured process prints: its clock origin and when each step ended (ms since it started). */
interface Timings {
  origin: number;
  imported: number;
  answered: number;
  /** CPU milliseconds (user + system) the process had used when the answer came. */
  cpu: number;
}

const json = (body: unknown): CapturedResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** One route for each anchor, answered as its API documents it (enough for the SDK to parse it). */
const ANCHOR_ROUTES: Record<string, CapturedResponse> = {
  'GET /openai/v1/models': json({
    object: 'list',
    data: [{ id: 'gpt-bench', object: 'model', created: 1_700_000_000, owned_by: 'bench' }],
  }),
  'GET /anthropic/v1/models': json({
    data: [{ type: 'model', id: 'claude-bench', display_name: 'Bench', created_at: '2025-01-01T00:00:00Z' }],
    has_more: false,
    first_id: 'claude-bench',
    last_id: 'claude-bench',
  }),
  'GET /v1/balance': json({ object: 'balance', available: [], pending: [], livemode: false }),
};

// Each script runs in a fresh plain `node` (no loader, no flags): import, build a client, one call, then
// print the timings. `performance.now()` counts from the process's start, so `answered` is start to answer.
const PRINT = `const { user, system } = process.cpuUsage(); process.stdout.write(JSON.stringify({ origin: performance.timeOrigin, imported, answered, cpu: (user + system) / 1000 })); process.exit(0);`;
const SCRIPTS: Record<string, string> = {
  ours: `const setup = JSON.parse(process.env.PE_BENCH_SETUP);
const { PartnerEquity } = await import(setup.entry);
const imported = performance.now();
const client = new PartnerEquity(setup.partner);
await client.spvRequests.get(setup.slug);
const answered = performance.now();
${PRINT}`,
  'openai-node': `const setup = JSON.parse(process.env.PE_BENCH_SETUP);
const { default: OpenAI } = await import('openai');
const imported = performance.now();
const client = new OpenAI({ apiKey: 'sk-bench', baseURL: setup.baseUrl + '/openai/v1', maxRetries: 0 });
await client.models.list();
const answered = performance.now();
${PRINT}`,
  'anthropic-sdk-typescript': `const setup = JSON.parse(process.env.PE_BENCH_SETUP);
const { default: Anthropic } = await import('@anthropic-ai/sdk');
const imported = performance.now();
const client = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: setup.baseUrl + '/anthropic', maxRetries: 0 });
await client.models.list();
const answered = performance.now();
${PRINT}`,
  'stripe-node': `const setup = JSON.parse(process.env.PE_BENCH_SETUP);
const { default: Stripe } = await import('stripe');
const imported = performance.now();
const url = new URL(setup.baseUrl);
const client = new Stripe('sk_test_bench', { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
await client.balance.retrieve();
const answered = performance.now();
${PRINT}`,
  // Not an anchor: Node's own fetch of the same answer, the floor under every client.
  'bare fetch': `const setup = JSON.parse(process.env.PE_BENCH_SETUP);
const imported = performance.now();
const response = await fetch(setup.baseUrl + '/v1/balance');
await response.json();
const answered = performance.now();
${PRINT}`,
};
const ANCHORS = ['openai-node', 'anthropic-sdk-typescript', 'stripe-node'] as const;
const CONTENDERS = Object.keys(SCRIPTS);

async function measure(name: string, setup: unknown): Promise<Timings> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPTS[name]!], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', PE_BENCH_SETUP: JSON.stringify(setup) },
  });
  return JSON.parse(stdout) as Timings;
}

/**
 * Scenario 12 (issue 48): a fresh process imports a client library, builds a client and awaits its first
 * answer from a loopback server; ours against openai-node, anthropic-sdk-typescript and stripe-node doing
 * the same, one process each in rotated order every round. Ours signs an assertion, exchanges it for a
 * token and reads an SPV request (`spvRequests.get`), answered byte for byte as the fake API answered them;
 * the anchors list models (openai, anthropic) or read the balance (stripe) from one route each.
 */
export async function runFirstAnswer({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const rounds = quick ? 2 : 15;
  const fake = await spawnFakeServer();
  let replay: ReplayServerProcess | undefined;
  try {
    const spv = await captureSpvRequest(fake);
    const { clientId, issuer, privateKey } = fake.partner;
    await fake.close();
    replay = await spawnReplayServer({
      ...spv.replay,
      routes: { ...spv.replay.routes, ...ANCHOR_ROUTES },
      publicRoutes: [...(spv.replay.publicRoutes ?? []), ...Object.keys(ANCHOR_ROUTES)],
    });
    const baseUrl = replay.baseUrl;
    const setup = {
      baseUrl,
      entry: distUrl('index.js'),
      slug: spv.slug,
      partner: { baseUrl, clientId, issuer, privateKey },
    };
    // One untimed pass of each fills the OS file cache, as on any machine that just installed.
    for (const name of CONTENDERS) await measure(name, setup);
    const runs = new Map<string, Timings[]>(CONTENDERS.map((name) => [name, []]));
    const tokenSent: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (let turn = 0; turn < CONTENDERS.length; turn++) {
        const name = CONTENDERS[(round + turn) % CONTENDERS.length]!;
        const timings = await measure(name, setup);
        runs.get(name)!.push(timings);
        if (name === 'ours') {
          // When the token request reached the server, on the measured process's clock: after the
          // import, the client and signing the assertion.
          const arrived = (await replay.arrivals())['POST /v1/oauth2/tokens'];
          if (arrived !== undefined) tokenSent.push(arrived - timings.origin);
        }
      }
      log(
        `  ${SCENARIO} round ${round + 1}: ${CONTENDERS.map((name) => `${name} ${fmt(runs.get(name)!.at(-1)!.answered)}`).join(', ')} ms`,
      );
    }
    const answered = (name: string) => median(runs.get(name)!.map((t) => t.answered));
    const imported = (name: string) => median(runs.get(name)!.map((t) => t.imported));
    const anchors = median(ANCHORS.map(answered));
    // The ratio per round (ours / the anchors' median in that round), then its median: each round's
    // processes ran back to back, so a slow patch of the machine weighs on both sides.
    const ratios = runs
      .get('ours')!
      .map((ours, i) => ours.answered / median(ANCHORS.map((name) => runs.get(name)![i]!.answered)));
    const ratio = median(ratios);
    const cpu = (name: string) => median(runs.get(name)!.map((t) => t.cpu));
    const anchorsCpu = median(ANCHORS.map(cpu));
    log(
      `  ${SCENARIO}: ours ${fmt(answered('ours'))} ms, anchors' median ${fmt(anchors)} ms, ${fmt(ratio, 'x')}`,
    );
    return {
      rows: [
        ...CONTENDERS.map((name) =>
          reported(
            SCENARIO,
            `${name}: process start to first answer (import) (median)`,
            `${fmt(answered(name))} ms (${fmt(imported(name))} ms)`,
          ),
        ),
        reported(SCENARIO, "the anchors' median of those medians", `${fmt(anchors)} ms`),
        reported(
          SCENARIO,
          "CPU used by the first answer (median): ours / the anchors' median",
          `${fmt(cpu('ours'))} / ${fmt(anchorsCpu)} ms (${fmt(cpu('ours') / anchorsCpu, 'x')}; ${CONTENDERS.map((name) => `${name} ${fmt(cpu(name))}`).join(', ')})`,
        ),
        reported(
          SCENARIO,
          'ours, breakdown: import / token request sent (client, signature) / first answer (median)',
          `${fmt(imported('ours'))} / ${tokenSent.length > 0 ? fmt(median(tokenSent)) : '?'} / ${fmt(answered('ours'))} ms`,
        ),
        atMost(SCENARIO, "ours / the anchors' median, per round (median)", ratio, MAX_RATIO, 'x'),
      ],
      notes: [
        `First answer: ${rounds} rounds; each round starts one fresh plain \`node\` process (no loader, no flags) per contender, in an order rotated every round, after one untimed pass of each (OS file cache). Each process imports its library, builds a client, awaits one call and prints \`performance.now()\` (milliseconds since its own start) at each step. The server is bench/server/replay-server.ts on loopback in a process of its own. Ours (.bench-tmp/dist/index.js) signs an EdDSA assertion, posts the token exchange and reads \`spvRequests.get(slug)\`, both answered with the fake API's own captured bytes; openai-node lists models, anthropic-sdk-typescript lists models, stripe-node retrieves the balance (one small JSON answer each, retries off, stripe's telemetry off). "Token request sent" is when the token exchange reached the server, on the measured process's clock. "bare fetch" is Node's built-in fetch of one JSON answer, not an anchor: the floor under every client. The judged ratio is the median over rounds of ours divided by the anchors' median in the same round. The CPU row is each process's own user + system time when its answer came (\`process.cpuUsage()\`): less moved than wall time by other work on a shared machine.`,
      ],
    };
  } finally {
    await fake.close();
    await replay?.close();
  }
}
