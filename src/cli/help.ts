import type { Command } from './command.js';

/** `--help` of one command: synopsis, details, and every option with its environment variable. */
export function commandHelp(command: Command): string {
  const name = `partner-equity ${command.path.join(' ')}`;
  const rows: [string, string][] = Object.entries(command.options).map(([option, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '    ';
    const value = spec.type === 'string' ? ` ${spec.valueName ?? '<value>'}` : '';
    const env = spec.env ? ` [env: ${spec.env}]` : '';
    return [`${short}--${option}${value}`, `${spec.description}${env}`];
  });
  rows.push(['-h, --help', 'Show this help']);
  // Every variable the command reads, from its options and its own list: one place each.
  const environment: [string, string][] = [
    ...Object.entries(command.options).flatMap(([option, spec]): [string, string][] =>
      spec.env === undefined ? [] : [[spec.env, `as --${option}`]],
    ),
    ...Object.entries(command.environment ?? {}),
  ];
  const width = Math.max(...[...rows, ...environment].map(([left]) => left.length));
  const lines = [
    `${command.summary}`,
    '',
    `Usage: ${name} ${command.synopsis}`.trimEnd(),
    ...(command.details ? ['', command.details] : []),
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    ...(environment.length === 0
      ? []
      : ['', 'Environment:', ...environment.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`)]),
  ];
  return `${lines.join('\n')}\n`;
}

/** The top-level help: every command with its summary. */
export function mainHelp(commands: readonly Command[], version: string): string {
  const names = commands.map((command) => command.path.join(' '));
  const width = Math.max(...names.map((name) => name.length));
  return [
    `partner-equity ${version}: tools for the Partner Equity API and its SDK`,
    '',
    'Usage: partner-equity <command> [options]',
    '',
    'Commands:',
    ...commands.map((command, index) => `  ${names[index]!.padEnd(width)}  ${command.summary}`),
    '',
    "Run 'partner-equity <command> --help' for a command's options.",
    '',
  ].join('\n');
}
