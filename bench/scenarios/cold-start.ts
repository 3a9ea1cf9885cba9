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
/**
 * Issue 25: the SDK's own share of the main entry's import "may grow back to about 25 ms". "About" is read
 * as within 10%: between runs on this machine the share moves by about a millisecond either way.
 */
const MAX_OWN_SHARE_MS = 27.5;
/**
 * zod's import alone in the run that measured that share (25.5 ms; bench/RESULTS.md at 03f4155, 2026-11-26).
 * The same machine has since run the same work a third slower (zod 73 ms), which moved the share as much:
 * the share is judged in that run's machine time, scaled by zod's import in the same run.
 */
const REFERENCE_ZOD_MS = 54.4;
/** The other entries (package.json `exports`), each timed whole: `./webhooks` in both builds, `./redis`, `./testing`. */
const OTHER_ENTRIES = [
  { name: 'webhooks entry, node build', file: 'webhooks/index.node.js' },
  { name: 'webhooks entry, web/edge build', file: 'webhooks/index.js' },
  { name: 'redis entry', file: 'redis/index.js' },
  { name: 'testing entry', file: 'testing/index.js' },
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
 * import of every other entry: `./webhooks` (its node and web builds, what a serverless webhook function
 * pays), `./redis` and `./testing`.
 */
export async function runColdStart({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const entry = distUrl('index.js');
  const runs = quick ? 3 : 21;
  // One untimed pass of each fills the OS file cache, as it is on any machine that just installed.
  await importTime([entry]);
  await importTime(DEPENDENCIES);
  const entryUrls = OTHER_ENTRIES.map((entry) => distUrl(entry.file));
  for (const url of entryUrls) await importTime([url]);
  const others: number[][] = OTHER_ENTRIES.map(() => []);
  const main: number[] = [];
  const deps: number[] = [];
  const afterDeps: number[] = [];
  const each: Record<string, number[]> = Object.fromEntries(DEPENDENCIES.map((d) => [d, []]));
  for (let i = 0; i < runs; i++) {
    main.push(await importTime([entry]));
    deps.push(await importTime(DEPENDENCIES));
    afterDeps.push(await importTime([entry], DEPENDENCIES));
    for (const dependency of DEPENDENCIES) each[dependency]!.push(await importTime([dependency]));
    for (const [k, url] of entryUrls.entries()) others[k]!.push(await importTime([url]));
  }
  const mainMs = median(main);
  const depsMs = median(deps);
  const own = median(afterDeps);
  log(
    `  ${SCENARIO}: entry ${fmt(mainMs)} ms, zod+undici+jose ${fmt(depsMs)} ms, entry after them ${fmt(own)} ms`,
  );
  return {
    rows: [
      reported(SCENARIO, 'import of the main entry, whole (median)', `${fmt(mainMs)} ms`),
      ...OTHER_ENTRIES.map((entry, k) =>
        reported(SCENARIO, `import of the ${entry.name}, whole (median)`, `${fmt(median(others[k]!))} ms`),
      ),
      reported(
        SCENARIO,
        `${DEPENDENCIES.join(' / ')}, each imported alone (median)`,
        `${DEPENDENCIES.map((d) => fmt(median(each[d]!))).join(' / ')} ms`,
      ),
      reported(SCENARIO, `${DEPENDENCIES.join(' + ')} imported together (median)`, `${fmt(depsMs)} ms`),
      reported(SCENARIO, 'our own share: the entry imported after the three (median)', `${fmt(own)} ms`),
      atMost(
        SCENARIO,
        `our own share in the machine time of 2026-11-26 (× ${REFERENCE_ZOD_MS} ms / zod's import here; about 25 ms)`,
        (own * REFERENCE_ZOD_MS) / median(each['zod']!),
        MAX_OWN_SHARE_MS,
        'ms',
      ),
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
    ],
    notes: [
      `Cold start: ${runs} fresh \`node\` processes per figure (no loader, no flags), timing \`await import()\` inside the process with performance.now(); medians. The built ESM entry is .bench-tmp/dist/index.js. "Our own share" is the entry's import in processes that imported \`zod\`, \`undici\` and \`jose\` first: p-retry, Node built-ins, our modules and every zod schema they build. The cross-check subtracts the median of the three alone from the entry's median (two large, noisy numbers). Issue 25's "about 25 ms" was measured when zod's import alone took ${REFERENCE_ZOD_MS} ms on this machine (25.5 ms, 2026-11-26); on slower days the same build's share grows with zod's (the build of 03f4155 and this one, alternating in one run on 2026-11-28: 44.1 against 43.2 ms of median share, CPU ratio 0.97x, while the scenario read 34.6 ms with zod at 73 ms), so the judged figure is the share scaled by ${REFERENCE_ZOD_MS} ms over zod's import in the same run. The webhooks entry (\`@partner-equity/sdk/webhooks\`) is timed whole, nothing preloaded: .bench-tmp/dist/webhooks/index.node.js (the \`node\` condition: node:crypto HMAC) and webhooks/index.js (the default condition for workers and edge runtimes: Web Crypto); it loads neither zod, undici nor jose. \`./redis\` and \`./testing\` (which loads msw and the fake API) are timed whole as well.`,
    ],
  };
}
