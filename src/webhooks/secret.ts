import { decodeBase64 } from './base64.js';
import type { WebhookSecretEncoding } from './scheme/webhook-scheme.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

const PREFIX = 'whsec_';
const encoder = new TextEncoder();

/**
 * Fewest key bytes accepted per secret encoding. Base64 secrets (`whsec_…` or bare) follow Standard Webhooks,
 * whose secrets are 24 to 64 random bytes. A raw string is used as its UTF-8 bytes, which carry less entropy
 * each (hex or base64 text); 16 is below every issuer format we know (the shortest, 22 characters) and still
 * refuses a password-like word.
 */
export const MIN_SECRET_BYTES: Readonly<Record<WebhookSecretEncoding, number>> = Object.freeze({
  whsec: 24,
  base64: 24,
  raw: 16,
});

function malformed(message: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_secret', message);
}

/**
 * The HMAC key bytes of `secret` in `encoding`, refusing one that is too short. Errors name the secret by its
 * position (`label`) and never echo it.
 */
export function decodeSecret(
  secret: unknown,
  encoding: WebhookSecretEncoding = 'whsec',
  label = 'Webhook secret',
): Uint8Array<ArrayBuffer> {
  if (typeof secret !== 'string' || secret === '') {
    throw malformed(`${label} must be a non-empty string (was it read from an unset variable?).`);
  }
  let key: Uint8Array<ArrayBuffer> | undefined;
  if (encoding === 'raw') {
    key = encoder.encode(secret);
  } else {
    const hasPrefix = secret.startsWith(PREFIX);
    if (encoding === 'whsec' && !hasPrefix) {
      throw malformed(
        `${label} must start with "whsec_" (the Standard Webhooks form). A secret that is a plain string is ` +
          "used as given by schemes whose secretEncoding is 'raw' (e.g. the stripe, github and shopify presets).",
      );
    }
    key = decodeBase64(encoding === 'whsec' ? secret.slice(PREFIX.length) : secret);
    if (key === undefined) {
      throw malformed(
        `${label} is not ${encoding === 'whsec' ? '"whsec_" followed by ' : ''}standard base64; copy it again from the dashboard.`,
      );
    }
  }
  const min = MIN_SECRET_BYTES[encoding];
  if (key.length < min) {
    throw malformed(
      `${label} is ${key.length} byte${key.length === 1 ? '' : 's'} of key; ${encoding} secrets need at least ${min} ` +
        `(Standard Webhooks secrets are 24 to 64 random bytes). Generate a longer one.`,
    );
  }
  return key;
}
