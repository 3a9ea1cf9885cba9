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
 * cross-check, the median of the three imported alone is subtracted from the entry's.
 */
export async function runColdStart({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const entry = distUrl('index.js');
  const runs = quick ? 3 : 21;
  // One untimed pass of each fills the OS file cache, as it is on any machine that just installed.
  await importTime([entry]);
  await importTime(DEPENDENCIES);
  const main: number[] = [];
  const deps: number[] = [];
  const afterDeps: number[] = [];
  const each: Record<string, number[]> = Object.fromEntries(DEPENDENCIES.map((d) => [d, []]));
  for (let i = 0; i < runs; i++) {
    main.push(await importTime([entry]));
    deps.push(await importTime(DEPENDENCIES));
    afterDeps.push(await importTime([entry], DEPENDENCIES));
    for (const dependency of DEPENDENCIES) each[dependency]!.push(await importTime([dependency]));
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
      atMost(SCENARIO, 'our own share: the entry imported after the three', own, 30, 'ms'),
      reported(
        SCENARIO,
        'cross-check: entry - the three (medians)',
        `${fmt(Math.max(0, mainMs - depsMs))} ms`,
      ),
    ],
    notes: [
      `Cold start: ${runs} fresh \`node\` processes per figure (no loader, no flags), timing \`await import()\` inside the process with performance.now(); medians. The built ESM entry is .bench-tmp/dist/index.js. "Our own share" is the entry's import in processes that imported \`zod\`, \`undici\` and \`jose\` first: p-retry, Node built-ins and our modules, most of it building zod schemas at import. The cross-check subtracts the median of the three alone from the entry's median (two large, noisy numbers).`,
    ],
  };
}
