import type { Writable } from 'node:stream';
import type { Logger } from '../core/logging/logger.js';
import { printable } from '../core/logging/printable.js';

/**
 * The CLI's {@link Logger}: every line to stderr, never stdout, so a command's output stays exactly its
 * result — `$(partner-equity token)` is the token even with `PARTNER_EQUITY_LOG=debug`. One line per call:
 * level, message, then the (already redacted) fields as JSON; control characters escaped in both, as either
 * may quote a server.
 *
 * @example
 * ```ts
 * new PartnerEquity({ ...credentials, logger: stderrLogger(io.stderr) });
 * ```
 */
export function stderrLogger(stderr: Writable): Logger {
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    const json = fields === undefined ? '' : ` ${printable(safeJson(fields))}`;
    stderr.write(`partner-equity ${level}: ${printable(message)}${json}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function safeJson(fields: Record<string, unknown>): string {
  try {
    return JSON.stringify(fields);
  } catch {
    return '{}';
  }
}
