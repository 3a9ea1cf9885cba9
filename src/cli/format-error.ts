import { UsageError } from './usage-error.js';

/**
 * One line for stderr: never a stack trace, never more than the first line of a message. SDK errors
 * already keep secrets out of their messages; this keeps stacks and `cause` chains out of the terminal.
 */
export function formatError(error: unknown, commandName: string): string {
  const prefix = commandName === '' ? 'partner-equity' : `partner-equity ${commandName}`;
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n').find((part) => part.trim() !== '') ?? 'failed';
  if (error instanceof UsageError) {
    return `${prefix}: ${line} (see '${prefix} --help')\n`;
  }
  return `${prefix}: ${line}\n`;
}
