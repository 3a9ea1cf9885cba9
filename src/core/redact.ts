/** What a secret is replaced with in logs and error details. */
export const REDACTED = '[REDACTED]';

// Header names whose values are credentials.
const secretHeaders = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'webhook-signature',
]);

// Body or header keys that hold secrets: access/refresh tokens, assertions, client secrets, private keys,
// passwords, webhook secrets. Matched case-insensitively against the whole key with `_`/`-` removed.
const secretKey =
  /^(authorization|cookie|setcookie|assertion|clientassertion|password|secret|clientsecret|webhooksecret|privatekey|privatekeypem|d|token|accesstoken|refreshtoken|idtoken|apikey|signature)$|token$|secret$|password$|privatekey/;

// Secrets recognised by shape, wherever they appear in free text: compact JWTs (three base64url parts),
// `Bearer …` credentials, PEM private keys, `whsec_` webhook secrets.
const secretPatterns: RegExp[] = [
  /eyJ[\w-]*\.[\w-]+\.[\w-]*/g,
  /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bwhsec_[\w+/=-]+/g,
];

/** Whether a header or field name names a credential. */
export function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  if (secretHeaders.has(lower)) return true;
  return secretKey.test(lower.replace(/[-_]/g, ''));
}

/** Replaces secrets found by shape (JWTs, bearer credentials, PEM keys, webhook secrets) in free text. */
export function redactText(text: string): string {
  let out = text;
  for (const pattern of secretPatterns) out = out.replace(pattern, REDACTED);
  return out;
}

/** A copy of `headers` with credential values replaced. */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) out[name] = isSecretKey(name) ? REDACTED : redactText(value);
  return out;
}

/**
 * A copy of a request or response body safe to log: secret-named fields replaced at any depth, secret-shaped
 * strings replaced everywhere. Strings are read as JSON or `x-www-form-urlencoded` when they parse as such.
 *
 * @example
 * ```ts
 * redact('grant_type=refresh_token&refresh_token=rt_123'); // 'grant_type=refresh_token&refresh_token=[REDACTED]'
 * redact({ accessToken: 'at', expiresIn: 3600 });          // { accessToken: '[REDACTED]', expiresIn: 3600 }
 * ```
 */
export function redact(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value instanceof Headers) return redactHeaders(value);
  return redactValue(value, 0);
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20) return '[…]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSecretKey(key) ? REDACTED : redactValue(item, depth + 1);
  }
  return out;
}

function redactString(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactValue(JSON.parse(trimmed), 0));
    } catch {
      // Not JSON after all: fall through to the shape-based redaction.
    }
  }
  if (/^[\w.~%+-]+=[^&\s]*(&[\w.~%+-]+=[^&\s]*)*$/.test(trimmed)) {
    const params = new URLSearchParams(trimmed);
    const parts: string[] = [];
    for (const [key, item] of params) {
      parts.push(
        `${encodeURIComponent(key)}=${isSecretKey(key) ? REDACTED : encodeURIComponent(redactText(item))}`,
      );
    }
    return parts.join('&');
  }
  return redactText(text);
}
