import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BENCH_DIST } from '../lib/build-sdk.js';
import { atMost, type BenchContext, fmt, reported, type ScenarioResult } from '../lib/result.js';
import { startEchoServer } from './import-echo-server.js';

const run = promisify(execFile);
const SCENARIO = '8 CSV import';
const TMP = fileURLToPath(new URL('../../.bench-tmp/import/', import.meta.url));
/** Issue 29's target: RSS may grow at most this much from a small file to a million rows. */
const MAX_RSS_GROWTH_MB = 64;

/** One measured import. */
interface Run {
  rows: number;
  seconds: number;
  peakMb: number;
}

// Loaded first in the command's process: its peak RSS (KiB, as getrusage reports it) to a file at exit.
const PEAK_RSS = `data:text/javascript,${encodeURIComponent(
  'import { writeFileSync } from "node:fs"; process.on("exit", () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));',
)}`;

/** Writes `rows` valid investors as CSV, streamed (the file is larger than the memory the command may use). */
async function writeInvestors(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('partnerInvestorId,email,firstName,lastName,dateOfBirth,countryOfResidence\n');
  for (let start = 0; start < rows; start += 10_000) {
    let text = '';
    for (let i = start; i < Math.min(rows, start + 10_000); i++) {
      text += `inv-${i},investor.${i}@example.com,Ada,"Investor ${i}",1985-02-28,DE\n`;
    }
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
}

/**
 * One `partner-equity import investors` run of the built command on a file of `rows`, with these Node
 * flags: seconds, peak RSS (MB). Throws unless every row is done.
 */
async function importOnce(file: string, rows: number, env: Record<string, string>, flags: string[] = []) {
  const rssFile = `${TMP}rss`;
  const args = ['import', 'investors', file, '--out', `${TMP}results.csv`, '--json'];
  const started = performance.now();
  const { stdout } = await run(
    process.execPath,
    [...flags, '--import', PEAK_RSS, `${BENCH_DIST}cli/index.js`, ...args],
    {
      env: { ...env, BENCH_RSS_FILE: rssFile },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const summary = JSON.parse(stdout.trimEnd().split('\n').at(-1) ?? '{}') as {
    done?: number;
    failed?: number;
  };
  if (summary.done !== rows || summary.failed !== 0)
    throw new Error(`import of ${rows} rows: ${JSON.stringify(summary)}`);
  return { seconds, peakMb: Number(await readFile(rssFile, 'utf8')) / 1024 };
}

/**
 * Scenario 7: `partner-equity import investors` (the built command, as partners run it) on 10,000,
 * 400,000 and 1,000,000 generated rows against a server that answers each chunk at once. Throughput over
 * the whole command (check pass, send pass, results file); peak RSS of the command's process for each
 * size, the growth judged: memory must follow the chunk size, not the file.
 */
export async function runImportCsv({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const sizes = quick ? [1_000, 3_000, 5_000] : [10_000, 400_000, 1_000_000];
  await mkdir(TMP, { recursive: true });
  const server = await startEchoServer();
  try {
    const keyFile = `${TMP}key.pem`;
    const { privateKey } = generateKeyPairSync('ed25519');
    await writeFile(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    const env = {
      PATH: process.env['PATH'] ?? '',
      PE_BASE_URL: server.baseUrl,
      PE_CLIENT_ID: 'client_bench',
      PE_ISSUER: 'https://bench.example',
      PE_PRIVATE_KEY_FILE: keyFile,
    };
    const runs = [];
    for (const rows of sizes) {
      const file = `${TMP}investors-${rows}.csv`;
      await writeInvestors(file, rows);
      const measured = await importOnce(file, rows, env);
      await rm(file);
      log(
        `  ${SCENARIO}: ${fmt(rows)} rows in ${fmt(measured.seconds)} s, peak RSS ${fmt(measured.peakMb)} MB`,
      );
      runs.push({ rows, ...measured });
    }
    const [small, middle, large] = runs as [Run, Run, Run];
    const name = (run: Run) => run.rows.toLocaleString('en');
    return {
      rows: [
        atMost(
          SCENARIO,
          `peak RSS growth ${name(small)} → ${name(large)} rows`,
          large.peakMb - small.peakMb,
          MAX_RSS_GROWTH_MB,
          'MB',
        ),
        reported(
          SCENARIO,
          `peak RSS growth ${name(middle)} → ${name(large)} rows`,
          `${fmt(large.peakMb - middle.peakMb)} MB`,
        ),
        reported(SCENARIO, 'peak RSS by file size', runs.map((run) => `${fmt(run.peakMb)} MB`).join(' / ')),
        reported(
          SCENARIO,
          `rows/s over the whole command, ${name(large)} rows`,
          fmt(Math.round(large.rows / large.seconds)),
        ),
      ],
      notes: [
        `CSV import: the built \`partner-equity import investors <file> --out <results> --json\` in a process of its own, on generated files of ${runs.map(name).join(', ')} rows (about 75 bytes a row), against a loopback server in the bench process that answers every 500-row chunk at once (bench/scenarios/import-echo-server.ts). Times cover the whole command: the check pass over the file, the send pass (4 chunks in flight) and the results file. Peak RSS is the command's own getrusage maximum (the process, so the import's worker thread counts too), with Node's default flags. The import's thread has heap limits sized from the chunk size (src/cli/import/import-thread.ts): before, on Node's default heap sizing, V8 grew the young generation by the garbage that survived it, summed over the run, and a long file peaked at about 330 MB for 400,000 and 1,000,000 rows alike, 10,000 rows at about 135 MB.`,
      ],
    };
  } finally {
    await server.close();
    await rm(TMP, { recursive: true, force: true });
  }
}
