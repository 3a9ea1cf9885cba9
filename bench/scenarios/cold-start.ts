import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { distUrl } from '../lib/build-sdk.js';
import { atMost, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { median } from '../lib/stats.js';

const run = promisify(execFile);
const SCENARIO = '6 cold start';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEPENDENCIES = ['zod', 'undici', 'jose'] as const;
/** Issue 17's target for the SDK's own share of the main entry's import, in ms. */
const MAX_OWN_SHARE_MS = 15;
/** The `./webhooks` entry's builds: what a webhook function imports (package.json `exports`). */
const WEBHOOK_BUILDS = [
  { name: 'node build', file: 'webhooks/index.node.js' },
  { name: 'web/edge build', file: 'webhooks/index.js' },
] as const;

/**
 * Milliseconds a fresh Node process spends in `await import(...)` of `specifiers`, in order, after importing
 * `preloaded` (untimed). Plain
 * `node` (no tsx loader, no flags), run from the repository root so bare names resolve as for a partner.
 */
async function importTime(specifiers: readonly string[], preloaded: readonly string[] = []): Promise<number> {
  const list = JSON.stringify(specifiers);
  const script = `for (const s of ${JSON.stringify(preloaded)}) await import(s); const t = performance.now(); for (const s of ${list}) await import(s); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '' },
  });
  return Number(stdout);
}

/**
 * Scenario 6: time to `import` the built main entry in a fresh process (median of several runs), and its
 * share that is not zod/undici/jose themselves: the entry's import timed in processes that imported the
 * three first (everything else the entry loads and runs, p-retry and Node built-ins included). As a
 * cross-check, the median of the three imported alone is subtracted from the entry's. Also the whole
 * import of the `./webhooks` entry (its node and web builds), what a serverless webhook function pays.
 */
export async function runColdStart({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const entry = distUrl('index.js');
  const runs = quick ? 3 : 21;
  // One untimed pass of each fills the OS file cache, as it is on any machine that just installed.
  await importTime([entry]);
  await importTime(DEPENDENCIES);
  const webhookUrls = WEBHOOK_BUILDS.map((build) => distUrl(build.file));
  for (const url of webhookUrls) await importTime([url]);
  const webhooks: number[][] = WEBHOOK_BUILDS.map(() => []);
  const main: number[] = [];
  const deps: number[] = [];
  const afterDeps: number[] = [];
  const each: Record<string, number[]> = Object.fromEntries(DEPENDENCIES.map((d) => [d, []]));
  for (let i = 0; i < runs; i++) {
    main.push(await importTime([entry]));
    deps.push(await importTime(DEPENDENCIES));
    afterDeps.push(await importTime([entry], DEPENDENCIES));
    for (const dependency of DEPENDENCIES) each[dependency]!.push(await importTime([dependency]));
    for (const [k, url] of webhookUrls.entries()) webhooks[k]!.push(await importTime([url]));
  }
  const mainMs = median(main);
  const depsMs = median(deps);
  const own = median(afterDeps);
  log(
    `  ${SCENARIO}: entry ${fmt(mainMs)} ms, zod+undici+jose ${fmt(depsMs)} ms, entry after them ${fmt(own)} ms`,
  );
  return {
    rows: [
      reported(SCENARIO, 'import of the main entry (median)', `${fmt(mainMs)} ms`),
      reported(
        SCENARIO,
        'zod + undici + jose alone (each alone)',
        `${fmt(depsMs)} ms (${DEPENDENCIES.map((d) => `${d} ${fmt(median(each[d]!))}`).join(', ')})`,
      ),
      atMost(SCENARIO, 'our own share: the entry imported after the three', own, MAX_OWN_SHARE_MS, 'ms'),
      reported(
        SCENARIO,
        "our own share / zod's import alone (same run; comparable between runs)",
        fmt(own / median(each['zod']!), 'x'),
      ),
      reported(
        SCENARIO,
        'cross-check: entry - the three (medians)',
        `${fmt(Math.max(0, mainMs - depsMs))} ms`,
      ),
      ...WEBHOOK_BUILDS.map((build, k) =>
        reported(
          SCENARIO,
          `import of the webhooks entry, ${build.name} (whole, median)`,
          `${fmt(median(webhooks[k]!))} ms`,
        ),
      ),
    ],
    notes: [
      `Cold start: ${runs} fresh \`node\` processes per figure (no loader, no flags), timing \`await import()\` inside the process with performance.now(); medians. The built ESM entry is .bench-tmp/dist/index.js. "Our own share" is the entry's import in processes that imported \`zod\`, \`undici\` and \`jose\` first: p-retry, Node built-ins and our modules (zod schemas are built on first use, not at import). The cross-check subtracts the median of the three alone from the entry's median (two large, noisy numbers). The webhooks entry (\`@partner-equity/sdk/webhooks\`) is timed whole, nothing preloaded: .bench-tmp/dist/webhooks/index.node.js (the \`node\` condition: node:crypto HMAC) and webhooks/index.js (the default condition for workers and edge runtimes: Web Crypto); it loads neither zod, undici nor jose.`,
    ],
  };
}
