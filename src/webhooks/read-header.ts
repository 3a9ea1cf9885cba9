import { WebhookVerificationError } from './webhook-verification-error.js';

/**
 * Request headers in any of the shapes frameworks hand over: a Fetch `Headers` (Workers, Next.js, Hono,
 * Deno, Bun), Node's `IncomingHttpHeaders` (values may be arrays) or a plain record. Names match
 * case-insensitively.
 */
export type WebhookRequestHeaders =
  | Headers
  | {
      /** The header's value (repeated headers joined by `, `), or `null` when absent. */
      get(name: string): string | null;
    }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

function lookup(headers: WebhookRequestHeaders, name: string): string | readonly string[] | undefined {
  if (typeof headers.get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  // Node lower-cases names already; a hand-built record may not.
  const direct = Object.hasOwn(record, name) ? record[name] : undefined;
  if (direct !== undefined) return direct;
  for (const key of Object.keys(record)) {
    if (key.length === name.length && key.toLowerCase() === name) return record[key];
  }
  return undefined;
}

/**
 * The value of header `name` (lower-case). Repeated values must agree, except with `joinRepeats` (the
 * signature header, whose entries are a list anyway): those are joined with a space.
 */
export function readHeader(headers: WebhookRequestHeaders, name: string, joinRepeats = false): string {
  const raw = lookup(headers, name);
  let value: string | undefined;
  if (typeof raw === 'string') {
    value = raw;
  } else if (Array.isArray(raw)) {
    const values = raw as readonly string[];
    if (joinRepeats) value = values.join(' ');
    else if (values.every((v) => v === values[0])) value = values[0];
    else throw new WebhookVerificationError('malformed_header', `Header ${name} was sent more than once.`);
  }
  value = value?.trim();
  if (!value) throw new WebhookVerificationError('missing_header', `Missing header ${name}.`);
  return value;
}
