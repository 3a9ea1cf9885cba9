import { decodeBase64 } from './base64.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

const PREFIX = 'whsec_';

/**
 * The HMAC key bytes of a Standard Webhooks secret: `whsec_` followed by base64. The bare base64 form is
 * accepted too, as the Standard Webhooks libraries do. Errors never echo the secret.
 */
export function decodeSecret(secret: unknown): Uint8Array<ArrayBuffer> {
  if (typeof secret !== 'string') {
    throw new WebhookVerificationError(
      'malformed_secret',
      'Webhook secret must be a string like "whsec_<base64>".',
    );
  }
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  const key = decodeBase64(encoded);
  if (key === undefined || key.length === 0) {
    throw new WebhookVerificationError(
      'malformed_secret',
      'Webhook secret is not "whsec_" followed by standard base64; copy it again from the dashboard.',
    );
  }
  return key;
}
