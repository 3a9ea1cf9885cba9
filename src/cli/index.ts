#!/usr/bin/env node
// The `partner-equity` command (package.json `bin`). Everything lives in main.ts; this file wires the real
// process to it and makes sure no failure ever ends in a stack trace.
import type { CliIo } from './command.js';
import { formatError } from './format-error.js';
import { runCli } from './main.js';

const io: CliIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  waitForInterrupt: () =>
    new Promise((resolve) => {
      const signals = ['SIGINT', 'SIGTERM'] as const;
      const onSignal = (signal: string) => {
        for (const name of signals) process.off(name, onSignal);
        resolve(signal);
      };
      for (const name of signals) process.on(name, onSignal);
    }),
};

const fail = (error: unknown) => {
  process.stderr.write(formatError(error, ''));
  process.exit(1);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

// Set the status and let the process end by itself, so buffered stdout (a pipe on macOS) is fully written;
// every command closes what it opened.
runCli(process.argv.slice(2), io).then((status) => {
  process.exitCode = status;
}, fail);
