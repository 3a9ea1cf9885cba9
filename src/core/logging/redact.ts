import type { SecretRegistry } from './secret-registry.js';

/** What a secret is replaced with in logs and error details. */
export const REDACTED = '[REDACTED]';

/** What a personal data field (e-mail, names, date of birth…) is replaced with in log lines. */
export const MASKED = '[MASKED]';

/** How {@link redact} treats a value beyond the secret-named fields and secret shapes it always removes. */
export interface RedactOptions {
  /** The client's own secrets, replaced by value wherever they appear. */
  secrets?: SecretRegistry | undefined;
  /** Replace personal data fields ({@link isPersonalDataKey}) and e-mail addresses with `[MASKED]`. */
  maskPersonalData?: boolean | undefined;
}

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

// Keys that hold an investor's personal data, matched like `secretKey`. `name` alone is not one: templates,
// catalogs and share classes have names.
const personalKey =
  /^(e?mail|emailaddress|firstname|lastname|middlename|fullname|givenname|familyname|surname|legalname|maidenname|dateofbirth|birthdate|dob|phone|phonenumber|mobile|mobilenumber|telephone|address|streetaddress|addressline\d?|postcode|postalcode|zipcode|taxid|tin|ssn|socialsecuritynumber|nationalid|nationalidnumber|passportnumber|iban)$/;

/**
 * Longest text the SDK keeps of any one value in an error or a log line (8 KiB); the rest is cut, with a
 * note of how much. Redaction reads a little more than it keeps, so a secret across the cut is still found.
 */
export const MAX_KEPT_TEXT = 8 * 1024;
const REDACTION_MARGIN = 8 * 1024;

/** Longest body read as JSON (1 MiB) to redact it field by field; a longer one is kept as an excerpt. */
export const MAX_REDACTED_BODY = 1024 * 1024;

// Secrets recognised by shape, wherever they appear in free text: `Bearer …`/`Basic …` credentials (not an
// auth-param such as `Bearer realm="api"`), PEM private keys, `whsec_` webhook secrets (compact JWTs: see
// `dottedRun`). Each starts only where a run of its characters starts, so a long run of a pattern's prefix
// is scanned once, not once per position (linear time whatever the input).
const secretPatterns: RegExp[] = [
  /\b(Bearer|Basic)\s+(?![A-Za-z][\w-]*\s*=\s*["\w])[\w.~+/-]+=*/gi,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bwhsec_[\w+/=-]+/g,
];

const emailPattern = /(?<![\w.%+-])[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

// A run of base64url characters and dots holding `eyJ` (the start of a JWT's JSON header), matched whole from
// its first character: a JWT inside it may follow a letter or digit (`assertion%3DeyJ…`), so `redactJwts`
// finds it in the run rather than a pattern starting at each `eyJ` (which would be quadratic).
const dottedRun = /(?<![\w.-])(?=[\w.-]*?eyJ)[\w.-]+/g;

/**
 * `run` with each compact JWT in it (`eyJ…` then at least two more dot-separated parts, the middle one not
 * empty) replaced from its `eyJ` to the end of the run, trailing dots (a sentence's full stop) kept.
 */
function redactJwts(run: string): string {
  let from = 0;
  for (;;) {
    const at = run.indexOf('eyJ', from);
    if (at === -1) return run;
    const first = run.indexOf('.', at);
    // No dot after this `eyJ`: none after a later one either.
    if (first === -1) return run;
    const second = run.indexOf('.', first + 1);
    if (second > first + 1) {
      let end = run.length;
      while (run[end - 1] === '.') end -= 1;
      return `${run.slice(0, at)}${REDACTED}${run.slice(end)}`;
    }
    from = first + 1;
  }
}

/** Whether a header or field name names a credential. */
export function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  if (secretHeaders.has(lower)) return true;
  return secretKey.test(lower.replace(/[-_]/g, ''));
}

/** Whether a field name names personal data: e-mail, first/last/full name, date of birth, phone, address, ids. */
export function isPersonalDataKey(key: string): boolean {
  return personalKey.test(key.toLowerCase().replace(/[-_]/g, ''));
}

/**
 * Replaces secrets in free text: the registry's values (when given), then secret shapes (JWTs, bearer
 * credentials, PEM keys, webhook secrets).
 */
export function redactText(text: string, secrets?: SecretRegistry): string {
  let out = secrets === undefined ? text : secrets.replace(text, REDACTED);
  out = out.replace(dottedRun, redactJwts);
  for (const pattern of secretPatterns) out = out.replace(pattern, REDACTED);
  return out;
}

// One value, cut to MAX_KEPT_TEXT once redacted (what is read is bounded too, so no size can stall a call).
function redactLeaf(text: string, options: RedactOptions): string {
  const long = text.length > MAX_KEPT_TEXT;
  const read = long ? text.slice(0, MAX_KEPT_TEXT + REDACTION_MARGIN) : text;
  let out = redactText(read, options.secrets);
  if (options.maskPersonalData === true) out = out.replace(emailPattern, MASKED);
  return long ? `${out.slice(0, MAX_KEPT_TEXT)}… [cut: ${text.length} characters in all]` : out;
}

/** A copy of `headers` with credential values replaced (by name, by value and by shape). */
export function redactHeaders(
  headers: Headers | Record<string, string>,
  secrets?: SecretRegistry,
): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) out[name] = isSecretKey(name) ? REDACTED : redactText(value, secrets);
  return out;
}

/**
 * A copy of a body safe to log or keep in an error: secret-named fields at any depth, the client's secrets
 * and secret-shaped strings replaced, personal data masked with `maskPersonalData`. Strings are read as
 * JSON or `x-www-form-urlencoded` when they parse as such.
 */
export function redact(value: unknown, options: RedactOptions = {}): unknown {
  if (typeof value === 'string') return redactString(value, options);
  if (value instanceof Headers) return redactHeaders(value, options.secrets);
  return redactValue(value, 0, options);
}

function redactValue(value: unknown, depth: number, options: RedactOptions): unknown {
  if (typeof value === 'string') return redactLeaf(value, options);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20) return '[…]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, options));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSecretKey(key)
      ? REDACTED
      : options.maskPersonalData === true && isPersonalDataKey(key) && item !== null && item !== undefined
        ? MASKED
        : redactValue(item, depth + 1, options);
  }
  return out;
}

function redactString(text: string, options: RedactOptions): string {
  if (text.length > MAX_REDACTED_BODY) return redactLeaf(text, options);
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactValue(JSON.parse(trimmed), 0, options));
    } catch {
      // Not JSON after all: fall through to the shape-based redaction.
    }
  }
  if (/^[\w.~%+-]+=[^&\s]*(&[\w.~%+-]+=[^&\s]*)*$/.test(trimmed)) {
    const parts = [...new URLSearchParams(trimmed)].map(([key, item]) => {
      const shown = isSecretKey(key)
        ? REDACTED
        : options.maskPersonalData === true && isPersonalDataKey(key)
          ? MASKED
          : encodeURIComponent(redactLeaf(item, options));
      return `${encodeURIComponent(key)}=${shown}`;
    });
    return parts.join('&');
  }
  return redactLeaf(text, options);
}
