import type { Logger } from '../../src/core/logging/logger.js';

/** One log call. */
export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown> | undefined;
}

/** A {@link Logger} that keeps every line; `text()` is everything logged, as one string to search. */
export function memoryLogger(): Logger & { lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (message: string, fields?: Record<string, unknown>) => {
    lines.push({ level, message, fields });
  };
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () =>
      lines.map((line) => `${line.level} ${line.message} ${JSON.stringify(line.fields ?? {})}`).join('\n'),
  };
}
