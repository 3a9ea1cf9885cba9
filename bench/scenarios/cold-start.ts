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
 * Milliseconds a fresh Node process spends in `await import(...)` of `specifiers`, in order. Plain
 * `node` (no tsx loader, no flags), run from the repository root so bare names resolve as for a partner.
 */
async function importTime(specifiers: readonly string[]): Promise<number> {
  const list = JSON.stringify(specifiers);
  const script = `const t = performance.now(); for (const s of ${list}) await import(s); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '' },
  });
  return Number(stdout);
}

/**
 * Scenario 6: time to `import` the built main entry in a fresh process (median of several runs), and its
 * share that is not zod/undici/jose themselves: the same three imported alone, in fresh processes
 * interleaved with the entry's runs, are subtracted.
 */
export async function runColdStart({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const entry = distUrl('index.js');
  const runs = quick ? 3 : 21;
  // One untimed pass of each fills the OS file cache, as it is on any machine that just installed.
  await importTime([entry]);
  await importTime(DEPENDENCIES);
  const main: number[] = [];
  const deps: number[] = [];
  const each: Record<string, number[]> = Object.fromEntries(DEPENDENCIES.map((d) => [d, []]));
  for (let i = 0; i < runs; i++) {
    main.push(await importTime([entry]));
    deps.push(await importTime(DEPENDENCIES));
    for (const dependency of DEPENDENCIES) each[dependency]!.push(await importTime([dependency]));
  }
  const mainMs = median(main);
  const depsMs = median(deps);
  const own = Math.max(0, mainMs - depsMs);
  log(`  ${SCENARIO}: entry ${fmt(mainMs)} ms, zod+undici+jose ${fmt(depsMs)} ms`);
  return {
    rows: [
      reported(SCENARIO, 'import of the main entry (median)', `${fmt(mainMs)} ms`),
      reported(
        SCENARIO,
        'zod + undici + jose alone (each alone)',
        `${fmt(depsMs)} ms (${DEPENDENCIES.map((d) => `${d} ${fmt(median(each[d]!))}`).join(', ')})`,
      ),
      atMost(SCENARIO, 'our own share (entry - the three)', own, 30, 'ms'),
    ],
    notes: [
      `Cold start: ${runs} fresh \`node\` processes per figure (no loader, no flags), timing \`await import()\` inside the process with performance.now(); medians. The built ESM entry (.bench-tmp/dist/index.js) against \`zod\`, \`undici\` and \`jose\` imported together; "our own" is the difference, and includes p-retry and anything the entry loads beyond those three.`,
    ],
  };
}
