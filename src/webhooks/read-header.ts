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
 * signature header, whose entries are a list anyway): those are joined with a space. A repeat arrives as an
 * array or joined with `, ` (Node, `Headers#get`); ids and timestamps hold no spaces, so `, ` splits copies.
 */
export function readHeader(headers: WebhookRequestHeaders, name: string, joinRepeats = false): string {
  const raw = lookup(headers, name);
  const values: readonly string[] = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  let value: string | undefined;
  if (joinRepeats) value = values.join(' ');
  else {
    const copies = values.flatMap((v) => v.trim().split(', ')).map((v) => v.trim());
    if (copies.some((v) => v !== copies[0])) {
      throw new WebhookVerificationError(
        'malformed_header',
        `Header ${name} was sent more than once, with different values.`,
      );
    }
    value = copies[0];
  }
  value = value?.trim();
  if (!value) throw new WebhookVerificationError('missing_header', `Missing header ${name}.`);
  return value;
}
