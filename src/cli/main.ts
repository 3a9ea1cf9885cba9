import { VERSION } from '../version.js';
import type { CliIo, Command } from './command.js';
import { doctor } from './commands/doctor.js';
import { importInvestors, importSubscriptions } from './commands/import.js';
import { keysGenerate } from './commands/keys-generate.js';
import { mock } from './commands/mock.js';
import { spvRequestsGet, spvRequestsList } from './commands/spv-requests.js';
import { token } from './commands/token.js';
import { webhooksListen } from './commands/webhooks-listen.js';
import { webhooksSign } from './commands/webhooks-sign.js';
import { webhooksVerify } from './commands/webhooks-verify.js';
import { withEnvFile } from './credentials.js';
import { formatError } from './format-error.js';
import { commandHelp, mainHelp } from './help.js';
import { parseOptions } from './parse-options.js';
import { UsageError } from './usage-error.js';

/** Every subcommand, in the order `--help` lists them. */
export const commands: readonly Command[] = [
  keysGenerate,
  token,
  doctor,
  spvRequestsList,
  spvRequestsGet,
  importInvestors,
  importSubscriptions,
  mock,
  webhooksSign,
  webhooksVerify,
  webhooksListen,
];

/** Exit status of a usage error (unknown command or option, missing value or credential). */
export const USAGE_EXIT = 2;

/**
 * Runs `partner-equity <args>` and resolves to the exit status. Every failure is reported as one line on
 * stderr: 2 for usage errors, 1 for everything else.
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const first = args[0];
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    (first === undefined ? io.stderr : io.stdout).write(mainHelp(commands, VERSION));
    return first === undefined ? USAGE_EXIT : 0;
  }
  if (first === '-v' || first === '--version') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = findCommand(args);
  if (command === undefined) return unknownCommand(args, io);
  const name = command.path.join(' ');
  try {
    const parsed = parseOptions(command, args.slice(command.path.length));
    if (parsed.help) {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    return await command.run(parsed.values, await withEnvFile(parsed.values, io));
  } catch (error) {
    io.stderr.write(formatError(error, name));
    return error instanceof UsageError ? USAGE_EXIT : 1;
  }
}

function findCommand(args: readonly string[]): Command | undefined {
  return commands.find((command) => command.path.every((word, index) => args[index] === word));
}

function unknownCommand(args: readonly string[], io: CliIo): number {
  const group = commands.filter((command) => command.path[0] === args[0]);
  if (group.length > 0 && (args[1] === undefined || args[1].startsWith('-'))) {
    // `partner-equity webhooks` alone, or `partner-equity webhooks --help`: list that group's subcommands.
    const help = mainHelp(group, VERSION);
    if (args[1] === '-h' || args[1] === '--help') {
      io.stdout.write(help);
      return 0;
    }
    io.stderr.write(help);
    return USAGE_EXIT;
  }
  const words = group.length > 0 ? `${args[0]} ${args[1]}` : args[0];
  io.stderr.write(formatError(new UsageError(`unknown command '${words}'`), ''));
  return USAGE_EXIT;
}
