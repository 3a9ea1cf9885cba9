import { type RedactOptions, redact } from './redact.js';

/**
 * Longest body a debug log line carries, in characters (2 KiB). A longer body is logged as the first
 * 2,048 characters of its redacted JSON (or text) followed by `… [truncated, N characters]`.
 */
export const LOG_BODY_LIMIT = 2048;

/**
 * A request or response body as a debug log field: redacted (secrets by name, value and shape; personal
 * data masked unless the partner opted in), and at most {@link LOG_BODY_LIMIT} characters. A small JSON
 * body stays an object, so structured loggers can index it; a large one becomes a truncated string.
 */
export function logBody(body: unknown, options: RedactOptions): unknown {
  if (body === undefined) return undefined;
  const redacted = redact(body, options);
  if (typeof redacted === 'string') return truncate(redacted);
  const text = JSON.stringify(redacted) ?? '';
  return text.length > LOG_BODY_LIMIT ? truncate(text) : redacted;
}

function truncate(text: string): string {
  if (text.length <= LOG_BODY_LIMIT) return text;
  return `${text.slice(0, LOG_BODY_LIMIT)}… [truncated, ${text.length} characters]`;
}
