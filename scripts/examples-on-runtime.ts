// Runs every example, and the quickstart, in a partner project that installed the packed tarball, on one
// runtime (Bun or Deno), and checks each prints what test/examples/expected-output.ts promises.
// Usage (scripts/consumer-check.sh): tsx scripts/examples-on-runtime.ts <project> <label> <command…>
// e.g. `… /tmp/consumer bun /path/to/bun` or `… /tmp/consumer deno /path/to/deno run -A --sloppy-imports`.
import { spawn } from 'node:child_process';
import { EXAMPLE_OUTPUTS, QUICKSTART_OUTPUT } from '../test/examples/expected-output.js';

const [project, label, command, ...args] = process.argv.slice(2);
if (project === undefined || label === undefined || command === undefined) {
  console.error('usage: tsx scripts/examples-on-runtime.ts <project> <label> <command…>');
  process.exit(2);
}

function run(file: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // No PE_* variables: every example then starts the fake in its own process.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PE_')));
    const child = spawn(command!, [...args, file], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

let failed = 0;
for (const [file, expected] of [...EXAMPLE_OUTPUTS, ['examples/quickstart.ts', QUICKSTART_OUTPUT] as const]) {
  const { status, stdout, stderr } = await run(file);
  const missing = expected.filter((pattern) => !pattern.test(stdout));
  if (status === 0 && stderr === '' && missing.length === 0) {
    console.log(`ok ${label}: ${file}`);
    continue;
  }
  failed += 1;
  console.error(`FAIL ${label}: ${file} (exit ${status})`);
  for (const pattern of missing) console.error(`  missing ${pattern}`);
  console.error(`  stdout:\n${stdout}\n  stderr:\n${stderr}`);
}
process.exit(failed === 0 ? 0 : 1);
