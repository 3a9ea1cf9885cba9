// `npm run bench` — every scenario of issue 8, side by side on this machine; prints the table and writes
// bench/RESULTS.md. `npm run bench -- --quick` is the CI smoke run (few iterations, RESULTS.md untouched).
// `--only=1,3` runs some scenarios (RESULTS.md untouched as well).
import { fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildSdk } from './lib/build-sdk.js';
import { findings } from './lib/findings.js';
import { machineInfo } from './lib/machine.js';
import { renderResults, renderTable } from './lib/render.js';
import type { BenchRow, Scenario, ScenarioResult } from './lib/result.js';
import { scenarios } from './scenarios/index.js';

// `npm run` puts the pinned Node 24 first on PATH; a bare `tsx bench/run.ts` may pick the system Node.
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(`bench needs Node >= 22 (this is ${process.version}); run it as \`npm run bench\`.`);
  process.exit(2);
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const unknown = args.filter((arg) => arg !== '--quick' && !arg.startsWith('--only='));
if (unknown.length > 0) {
  console.error(`Unknown arguments: ${unknown.join(' ')}\nUsage: npm run bench [-- --quick] [-- --only=1,3]`);
  process.exit(2);
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const selected: Scenario[] = scenarios.filter((s) => only === undefined || only.includes(s.id));
const started = performance.now();
const before = machineInfo();
log(`bench: building the package (tsup, ESM) into .bench-tmp/dist…`);
await buildSdk();

const rows: BenchRow[] = [];
const notes: string[] = [];
let failed = false;
for (const scenario of selected) {
  log(`bench: scenario ${scenario.id} — ${scenario.title}`);
  const t = performance.now();
  try {
    const result = await runIsolated(scenario);
    rows.push(...result.rows);
    notes.push(...result.notes);
  } catch (error) {
    // One broken scenario must not hide the others' figures; the run still fails at the end.
    failed = true;
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`bench: scenario ${scenario.id} failed: ${message}`);
    rows.push({
      scenario: `${scenario.id} ${scenario.title}`,
      figure: 'scenario failed',
      value: 'error',
      target: '-',
      holds: false,
    });
    notes.push(`Scenario ${scenario.id} failed: ${message.split('\n')[0]}`);
  }
  log(`bench: scenario ${scenario.id} took ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

const seconds = (performance.now() - started) / 1000;
const table = renderTable(rows);
process.stdout.write(
  `\n${table}\n\n${quick ? 'Quick run: figures are not judged.\n' : ''}Took ${seconds.toFixed(0)} s.\n`,
);

if (!quick && only === undefined) {
  const markdown = renderResults({
    date: new Date(),
    machine: before,
    loadAfter: machineInfo().load,
    command: 'npm run bench',
    seconds,
    table,
    rows,
    notes,
    findings,
  });
  await writeFile(new URL('./RESULTS.md', import.meta.url), markdown);
  log('bench: wrote bench/RESULTS.md');
}
// Child processes and sockets are closed by each scenario; a failed scenario fails the command.
process.exitCode = failed ? 1 : 0;

// Each scenario runs in a fresh process (bench/run-scenario.ts): figures must not depend on which scenarios
// ran before in the same heap. In one process the bulk scenario's CPU ratio read 1.68x after scenarios 1 to
// 4 and 1.40 to 1.49x on its own, with the same code.
function runIsolated(scenario: Scenario): Promise<ScenarioResult> {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(new URL('./run-scenario.ts', import.meta.url)),
      [scenario.id, ...(quick ? ['--quick'] : [])],
      { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    let answer: { result: ScenarioResult } | { error: string } | undefined;
    child.on('message', (message) => {
      answer = message as typeof answer;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (answer !== undefined && 'result' in answer) resolve(answer.result);
      else reject(new Error(answer?.error ?? `scenario ${scenario.id} exited with code ${code}`));
    });
  });
}
