import { printable } from '../core/logging/printable.js';
import { redactText } from '../core/logging/redact.js';
import { cliSecrets } from './cli-secrets.js';
import { UsageError } from './usage-error.js';

/**
 * One line for stderr: never a stack trace, never more than the first line of a message. SDK errors are
 * redacted when built; this line is redacted once more, by value ({@link cliSecrets}) and by shape (JWTs,
 * `Bearer …`, PEM keys, `whsec_…`), because an error from elsewhere (a file read, a framework) may quote
 * whatever it was given. A server's text may hold terminal escapes: they are shown, never sent to the terminal.
 */
export function formatError(error: unknown, commandName: string): string {
  const prefix = commandName === '' ? 'partner-equity' : `partner-equity ${commandName}`;
  const text = error instanceof Error ? error.message : String(error);
  const line = printable(
    redactText(text.split('\n').find((part) => part.trim() !== '') ?? 'failed', cliSecrets),
  );
  if (error instanceof UsageError) {
    return `${prefix}: ${line} (see '${prefix} --help')\n`;
  }
  return `${prefix}: ${line}\n`;
}
