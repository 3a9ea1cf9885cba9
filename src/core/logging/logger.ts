/**
 * A destination for the SDK's log lines. `console` fits; so do pino and winston loggers.
 * Fields are already redacted when they reach the logger (secrets by name, shape and value), bodies are cut
 * at 2 KiB, and personal data fields are `[MASKED]` unless the client has `logPersonalData: true`.
 *
 * @example
 * ```ts
 * const client = new PartnerEquity({ baseUrl, logger: pino(), logLevel: 'debug' });
 * ```
 */
export interface Logger {
  /** One line per attempt (method, path, status, attempt, duration, redacted headers and bodies). */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Noteworthy but expected events. */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Something failed and was handled, e.g. a background token renewal. */
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Something failed that the SDK could not handle by itself. */
  error(message: string, fields?: Record<string, unknown>): void;
}

/** How much the SDK logs. `debug` logs one line per attempt (method, path, status, attempt, duration). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** The levels, quietest last. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'off'] as const satisfies readonly LogLevel[];

/** The environment variable that sets the level when the `logLevel` option is absent. */
export const LOG_LEVEL_ENV = 'PARTNER_EQUITY_LOG';

/** The effective level: the `logLevel` option, else `PARTNER_EQUITY_LOG` if it names one, else `warn`. */
export function resolveLogLevel(option: LogLevel | undefined, env = readEnv(LOG_LEVEL_ENV)): LogLevel {
  return optionOrEnv(option, env, LOG_LEVELS, 'warn');
}

/** `option`, else `env` (a variable's value) when it names one of `choices`, else `fallback`. */
export function optionOrEnv<T extends string>(
  option: T | undefined,
  env: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  const fromEnv = env?.trim().toLowerCase();
  return option ?? choices.find((choice) => choice === fromEnv) ?? fallback;
}

/** An environment variable, or `undefined` where the runtime has no `process.env`. */
export function readEnv(name: string): string | undefined {
  // `process` is absent on some runtimes; the SDK must not crash there.
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env?.[name];
}

const noop = (): void => undefined;

/** A {@link Logger} that forwards to `target` only the lines at `level` or above. */
export function levelLogger(target: Logger, level: LogLevel): Logger & { readonly level: LogLevel } {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevel, 'off'>) =>
    LOG_LEVELS.indexOf(name) >= threshold ? target[name].bind(target) : noop;
  return { level, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The default logger: `console`. */
export const consoleLogger: Logger = console;
