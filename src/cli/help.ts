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
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = [
    `${command.summary}`,
    '',
    `Usage: ${name} ${command.synopsis}`.trimEnd(),
    ...(command.details ? ['', command.details] : []),
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
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
