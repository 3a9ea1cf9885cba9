import { parseArgs } from 'node:util';
import type { Command, OptionValues } from './command.js';
import { UsageError } from './usage-error.js';

/** What {@link parseOptions} found: the command's flags, or a request for its help. */
export type ParsedOptions = { help: true } | { help: false; values: OptionValues };

/**
 * Parses a subcommand's arguments strictly: unknown flags, missing values and stray positionals are
 * usage errors with a one-line message (parseArgs' own messages are longer and mention internals).
 */
export function parseOptions(command: Command, args: readonly string[]): ParsedOptions {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, spec] of Object.entries(command.options)) {
    options[name] = {
      type: spec.type,
      ...(spec.short !== undefined && { short: spec.short }),
      ...(spec.multiple !== undefined && { multiple: spec.multiple }),
    };
  }
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; strict: true; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
  if (parsed.values['help'] === true) return { help: true };
  const names = command.positionals ?? [];
  const stray = parsed.positionals[names.length];
  if (stray !== undefined) throw new UsageError(`unexpected argument '${stray}'`);
  const missing = names.slice(parsed.positionals.length);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((name) => `<${name}>`).join(' ')}`);
  const values: OptionValues = { ...parsed.values };
  names.forEach((name, index) => {
    values[name] = parsed.positionals[index];
  });
  for (const [name, spec] of Object.entries(command.options)) {
    const value = values[name];
    if (spec.type === 'string' && typeof value === 'string' && value.startsWith('--')) {
      // `--out --force` would otherwise write a file named "--force".
      throw new UsageError(`option '--${name}' needs a value, got '${value}'`);
    }
  }
  return { help: false, values };
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs quotes the option as '--out', '-o' or '-o, --out <value>'; name the long form when there is one.
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const option = /--[\w-]+/.exec(quoted)?.[0] ?? /-\w/.exec(quoted)?.[0];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${option ?? message}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return message.includes('does not take an argument')
        ? `option '${option}' takes no value`
        : `option '${option}' needs a value`;
    default:
      return message.split('\n')[0] ?? 'invalid arguments';
  }
}

/** A string flag's value (the last one if repeated), or `undefined`. */
export function stringValue(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (Array.isArray(value)) return stringList(values, name).at(-1);
  return typeof value === 'string' ? value : undefined;
}

/** Every value of a repeatable string flag. */
export function stringList(values: OptionValues, name: string): string[] {
  const value = values[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((item): item is string => typeof item === 'string');
}

/** A boolean flag. */
export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** A flag parsed as an integer in `[min, max]`, or `fallback` when absent. */
export function integerValue(
  values: OptionValues,
  name: string,
  range: { min: number; max: number; fallback: number },
): number {
  const text = stringValue(values, name);
  if (text === undefined) return range.fallback;
  const number = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(number) || number < range.min || number > range.max) {
    throw new UsageError(
      `option '--${name}' must be an integer from ${range.min} to ${range.max}, got '${text}'`,
    );
  }
  return number;
}
