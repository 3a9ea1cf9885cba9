import type { Readable, Writable } from 'node:stream';

/** One option of a command, as `node:util` `parseArgs` takes it, plus what `--help` shows. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** One line for `--help`. */
  description: string;
  /** Placeholder after the flag in `--help`, e.g. `<file>`. */
  valueName?: string;
  /** Environment variable used when the flag is absent (shown in `--help`). */
  env?: string;
}

/** What a command reads and writes; the real process streams, or test doubles. */
export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /**
   * Resolves with the signal's name on SIGINT/SIGTERM; long-running commands (`mock`, `webhooks listen`)
   * await it and then close cleanly. Handlers are installed only when called, so Ctrl-C still ends any
   * other command at once.
   */
  waitForInterrupt(): Promise<string>;
}

/** Parsed flags: strings, booleans, or lists for `multiple` options. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** A subcommand such as `keys generate`. */
export interface Command {
  /** Words after `partner-equity`, e.g. `['keys', 'generate']`. */
  path: readonly string[];
  /** One line for the command list. */
  summary: string;
  /** Argument synopsis after the command path, e.g. `[--out <file>] [--force]`. */
  synopsis: string;
  /** Paragraphs shown under the synopsis in `--help`. */
  details?: string;
  /** Names of required positional arguments, in order; their values arrive in `values` under these names. */
  positionals?: readonly string[];
  options: Record<string, OptionSpec>;
  /** Environment variables read besides the options' own `env` (name → one line), listed in `--help`. */
  environment?: Readonly<Record<string, string>>;
  /** Runs the command; resolves to the process exit status. */
  run(values: OptionValues, io: CliIo): Promise<number>;
}
