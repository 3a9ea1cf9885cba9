import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type BenchContext, fmt, type ScenarioResult } from '../lib/result.js';
import { runWebhookBench } from '../webhooks.bench.js';

const run = promisify(execFile);
const SCENARIO = '3 webhooks';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function newest(dir: string): Promise<number> {
  const names = await readdir(dir);
  const times = await Promise.all(names.map(async (name) => (await stat(`${dir}/${name}`)).mtimeMs));
  return Math.max(0, ...times);
}

/**
 * `dist/` as `npm run build` makes it, rebuilt only when the webhooks sources are newer (the webhooks bench
 * measures the published build, and rebuilding `dist/` needlessly would race other tools reading it).
 */
async function ensureWebhooksBuild(log: (line: string) => void): Promise<void> {
  const built = await stat(`${ROOT}dist/webhooks/index.node.js`).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  if (built >= (await newest(`${ROOT}src/webhooks`))) return;
  log('  dist/webhooks is missing or older than src/webhooks: npm run build');
  await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
}

/**
 * Scenario 3: the webhooks helper's bench (bench/webhooks.bench.ts, `runWebhookBench`), its rows put in
 * this table. It times, in interleaved rounds with medians, our `verify` of a 1 KB event against a bare
 * `createHmac` + `timingSafeEqual` loop, the best hand-written loop (cached `KeyObject` + `JSON.parse`)
 * and the `standardwebhooks` package, and Web Crypto with a cached key against `importKey` per call.
 */
export async function runWebhooks({ quick, log }: BenchContext): Promise<ScenarioResult> {
  await ensureWebhooksBuild(log);
  const rows = await runWebhookBench({ quick });
  return {
    rows: rows.map((row) => ({
      scenario: SCENARIO,
      figure: row.name.replace(/^webhooks: /, ''),
      value: row.name.endsWith('(µs/op)') ? `${fmt(row.value)} µs` : fmt(row.value, 'x'),
      target: row.target,
      holds: row.holds,
    })),
    notes: [
      `Webhooks: bench/webhooks.bench.ts (by the webhooks work, run here as scenario 3) against dist/webhooks, ${quick ? 'smoke sizes' : '5,000 operations per segment, 15 interleaved rounds'}; medians. "Bare" is createHmac with the raw secret bytes (OpenSSL sets the key up on every call, which dominates a 1 KB HMAC on Node 24), timingSafeEqual and no JSON.parse; "best hand-written loop" caches a KeyObject and parses the JSON, as verify does, and is the strict comparison.`,
    ],
  };
}
