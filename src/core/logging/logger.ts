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
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];

/** The environment variable that sets the level when the `logLevel` option is absent. */
export const LOG_LEVEL_ENV = 'PARTNER_EQUITY_LOG';

function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** The effective level: the `logLevel` option, else `PARTNER_EQUITY_LOG` if it names one, else `warn`. */
export function resolveLogLevel(option: LogLevel | undefined, env = readEnv(LOG_LEVEL_ENV)): LogLevel {
  if (option !== undefined) return option;
  const fromEnv = env?.trim().toLowerCase();
  return isLogLevel(fromEnv) ? fromEnv : 'warn';
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
