// One scenario of `npm run bench` in a process of its own (bench/run.ts forks one per scenario, so no
// scenario inherits another's heap, JIT state or leftover timers). Sends its ScenarioResult to the parent
// over IPC; a failure is sent as { error } and the process exits 1.
import type { ScenarioResult } from './lib/result.js';
import { scenarios } from './scenarios/index.js';

const [id, mode] = process.argv.slice(2);
const scenario = scenarios.find((s) => s.id === id);
const send = (message: { result: ScenarioResult } | { error: string }) =>
  new Promise<void>((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()));

try {
  if (scenario === undefined) throw new Error(`no scenario ${id}`);
  const result = await scenario.run({
    quick: mode === '--quick',
    log: (line) => process.stderr.write(`${line}\n`),
  });
  await send({ result });
} catch (error) {
  await send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
}
process.disconnect?.();
