import type { WebhookScheme } from './scheme/webhook-scheme.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** Most signature entries a header may hold; rotation needs two or three. */
export const MAX_SIGNATURES = 16;
// Room for MAX_SIGNATURES hex entries with their prefixes and a timestamp; a longer header is refused
// before it is split.
const MAX_SIGNATURE_HEADER_LENGTH = 2048;
const BASE64_DIGEST = /^[A-Za-z0-9+/]{43}=$/;
const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;

/** What a signature header holds: the digests to compare, and the timestamp entry when the scheme puts it there. */
export interface ParsedSignatureHeader {
  candidates: string[];
  timestamp: string | undefined;
}

function malformed(message: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_signature', message);
}

/** `v1,` followed by 44 base64 characters: what one entry of `scheme` looks like, for messages. */
export function describeEntry(scheme: WebhookScheme): string {
  const digest = scheme.signatureEncoding === 'hex' ? '64 hex digits' : '44 base64 characters';
  return scheme.signaturePrefix === '' ? digest : `"${scheme.signaturePrefix}" followed by ${digest}`;
}

/**
 * Splits a signature header into its digests (hex lower-cased) and timestamp entry, refusing oversized
 * headers and lists before any HMAC work. Entries of other versions (`v0=`, `v2,`) are skipped.
 */
export function parseSignatureHeader(scheme: WebhookScheme, header: string): ParsedSignatureHeader {
  const name = scheme.signatureHeader;
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) throw malformed(`Header ${name} is longer than allowed.`);
  // A single-signature header can still arrive twice: Node joins the values with ' ', `Headers#get` with ', '.
  const separator = scheme.signatureSeparator ?? ' ';
  const tokens = header.split(separator);
  const { signaturePrefix: prefix, timestampPrefix, signatureEncoding } = scheme;
  const shape = signatureEncoding === 'hex' ? HEX_DIGEST : BASE64_DIGEST;
  const candidates: string[] = [];
  let timestamp: string | undefined;
  let entries = 0;
  const maxEntries = MAX_SIGNATURES + (timestampPrefix === null ? 0 : 1);
  for (const raw of tokens) {
    let token = separator === ' ' ? raw : raw.trim();
    if (token === '') continue;
    // Only a space-separated entry can end with ',' (a comma splits the others).
    if (token.endsWith(',')) token = token.slice(0, -1);
    if (++entries > maxEntries) {
      const total = tokens.filter((t) => t.trim() !== '').length;
      throw malformed(
        `Header ${name} has ${total} entries; at most ${MAX_SIGNATURES} signatures are accepted.`,
      );
    }
    if (timestampPrefix !== null && token.startsWith(timestampPrefix)) {
      if (timestamp !== undefined) throw malformed(`Header ${name} has more than one timestamp entry.`);
      timestamp = token.slice(timestampPrefix.length);
      continue;
    }
    if (!token.startsWith(prefix)) continue;
    const digest = token.slice(prefix.length);
    if (shape.test(digest)) candidates.push(signatureEncoding === 'hex' ? digest.toLowerCase() : digest);
  }
  if (candidates.length === 0) {
    const found =
      entries === 0
        ? 'it is empty'
        : entries === 1
          ? 'its one entry is not of that form'
          : `none of its ${entries} entries is of that form`;
    throw malformed(
      `Header ${name} has no well-formed signature: expected ${describeEntry(scheme)}; ${found}.`,
    );
  }
  return { candidates, timestamp };
}

/** The signature header value `scheme` sends for one digest. */
export function formatSignatureHeader(scheme: WebhookScheme, timestamp: string, digest: string): string {
  const entry = `${scheme.signaturePrefix}${digest}`;
  if (scheme.timestampPrefix === null) return entry;
  return `${scheme.timestampPrefix}${timestamp}${scheme.signatureSeparator}${entry}`;
}
