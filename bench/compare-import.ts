// Two builds of `partner-equity import investors` side by side, for "the CLI import's figures are unchanged or
// better" (issue 34): `npm run bench:compare-import -- <dist-a> <dist-b> [rows] [rounds]`. Each dist is a built
// package folder: `npm run build` in a checkout of the commit to compare with (`git worktree add`), then its
// `dist`. Both commands import the same generated file (default 1,000,000 rows) against the same loopback
// server that answers every chunk at once, in turn (A B, then B A, and so on for `rounds`, default 6), so a
// slow patch of the machine weighs on both. Prints each run, each build's median rows/s and peak RSS (the
// command's own, its thread included) and the median of the per-round ratios A / B. One run of a million rows
// moved between about 24,000 and 31,000 rows/s on the same build (2026-11-28): compare medians over rounds,
// never two single runs.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fmt } from './lib/result.js';
import { median } from './lib/stats.js';
import { importEnv, importOnce, writeInvestors } from './scenarios/import-csv.js';
import { startEchoServer } from './scenarios/import-echo-server.js';

const [a, b, rowsArg = '1000000', roundsArg = '6'] = process.argv.slice(2);
const rows = Number(rowsArg);
const rounds = Number(roundsArg);
const builds = [a, b].map((dist) => resolve(dist ?? '', 'cli/index.js'));
if (a === undefined || b === undefined || !builds.every(existsSync) || !(rows > 0) || !(rounds > 0)) {
  console.error('usage: npm run bench:compare-import -- <dist-a> <dist-b> [rows] [rounds]');
  console.error('  each dist a built package folder with cli/index.js');
  process.exit(2);
}

const server = await startEchoServer();
const env = await importEnv(server.baseUrl);
const file = resolve(env['PE_PRIVATE_KEY_FILE'] as string, '..', `investors-${rows}.csv`);
try {
  await writeInvestors(file, rows);
  const rates: [number[], number[]] = [[], []];
  const peaks: [number[], number[]] = [[], []];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const { seconds, peakMb } = await importOnce(file, rows, env, [], builds[which]);
      rates[which as 0 | 1].push(rows / seconds);
      peaks[which as 0 | 1].push(peakMb);
      const rate = fmt(Math.round(rows / seconds));
      console.log(
        `round ${round + 1} ${which === 0 ? 'A' : 'B'}: ${rate} rows/s, peak RSS ${peakMb.toFixed(1)} MB`,
      );
    }
    ratios.push((rates[0].at(-1) as number) / (rates[1].at(-1) as number));
  }
  for (const [which, dist] of [a, b].entries()) {
    const [rate, peak] = [median(rates[which] as number[]), median(peaks[which] as number[])];
    console.log(
      `${'AB'[which]} ${dist}: median ${fmt(Math.round(rate))} rows/s, peak RSS ${peak.toFixed(1)} MB`,
    );
  }
  console.log(`A / B, median of ${rounds} paired rounds: ${median(ratios).toFixed(2)}x`);
} finally {
  await rm(file, { force: true });
  await server.close();
}
