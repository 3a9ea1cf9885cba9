import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsxLoader = `${root}node_modules/tsx/dist/loader.mjs`;
const entry = `${root}src/cli/index.ts`;

/** What a finished command left behind. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Written to stdin, then stdin is closed (always, so nothing waits on a terminal) unless `keepStdinOpen`. */
  input?: string | Uint8Array;
  /** Leave stdin open for `child.stdin.write()` (`startCli` only). */
  keepStdinOpen?: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

// The real command, as a partner runs it: a separate Node process on the TypeScript entry (tsx's loader in
// the same process, so signals reach the command itself; the code tsup bundles into dist/cli/index.js).
// PE_* variables of the test runner's shell never leak in.
function spawnCli(args: readonly string[], options: CliRunOptions): ChildProcessWithoutNullStreams {
  return spawnScript(entry, args, options);
}

/** Any TypeScript file of the repository run as its own process, e.g. an example. */
export function spawnScript(
  file: string,
  args: readonly string[],
  options: CliRunOptions,
): ChildProcessWithoutNullStreams {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('PE_')) delete env[name];
  return spawn(process.execPath, ['--import', tsxLoader, file, ...args], {
    cwd: options.cwd ?? root,
    env: { ...env, TSX_TSCONFIG_PATH: `${root}tsconfig.json`, ...options.env },
    stdio: 'pipe',
  });
}

/** Runs `partner-equity <args>` to completion. */
export function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliResult> {
  return collect(spawnCli(args, options), options);
}

/** Runs a TypeScript file of the repository (path relative to its root) to completion. */
export function runScript(
  file: string,
  args: readonly string[] = [],
  options: CliRunOptions = {},
): Promise<CliResult> {
  return collect(spawnScript(`${root}${file}`, args, options), options);
}

function collect(child: ChildProcessWithoutNullStreams, options: CliRunOptions): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(options.input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A long-running command (`mock`, `webhooks listen`) under test; `stop()` in teardown. */
export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /**
   * Resolves with the first match of `pattern` in stdout or stderr (or only in `stream`); rejects if the
   * process exits first.
   */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<RegExpExecArray>;
  /** Resolves with the exit status when the process ends by itself. */
  exited: Promise<number | null>;
  /** Sends SIGTERM and resolves with the exit status. */
  stop(): Promise<number | null>;
}

/** Starts a long-running command. */
export function startCli(args: readonly string[], options: CliRunOptions = {}): RunningCli {
  const child = spawnCli(args, options);
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    notify();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    notify();
  });
  if (options.keepStdinOpen) {
    if (options.input !== undefined) child.stdin.write(options.input);
  } else {
    child.stdin.end(options.input);
  }
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  void exited.then(notify);
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, stream) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match =
            (stream !== 'stderr' ? pattern.exec(out) : null) ??
            (stream !== 'stdout' ? pattern.exec(err) : null);
          if (match) {
            waiters.delete(check);
            resolve(match);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`exited (${child.exitCode}) before printing ${pattern}:\n${out}\n${err}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
