import { readHeader, type WebhookRequestHeaders } from './read-header.js';
import type { WebhookScheme } from './scheme/webhook-scheme.js';
import { parseSignatureHeader } from './signature-header.js';
import { WEBHOOK_ID, WEBHOOK_TIMESTAMP } from './signed-content.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** A delivery's id, timestamp and candidate signatures, as its headers state them (nothing verified yet). */
export interface DeliveryHeaders {
  /** `undefined` when the scheme has no id header. */
  id: string | undefined;
  /** The timestamp's text (`undefined` when the scheme signs none) and its value in seconds. */
  timestamp: string | undefined;
  seconds: number | undefined;
  candidates: string[];
}

/** Reads and checks the scheme's headers; every refusal is a {@link WebhookVerificationError}. */
export function readDeliveryHeaders(scheme: WebhookScheme, headers: WebhookRequestHeaders): DeliveryHeaders {
  if (typeof headers !== 'object' || headers === null) {
    throw new WebhookVerificationError('missing_header', 'Missing webhook headers.');
  }
  let id: string | undefined;
  if (scheme.idHeader !== null) {
    id = readHeader(headers, scheme.idHeader);
    if (!WEBHOOK_ID.test(id)) {
      throw new WebhookVerificationError(
        'malformed_header',
        `Header ${scheme.idHeader} is not 1-256 visible characters.`,
      );
    }
  }
  const signature = parseSignatureHeader(scheme, readHeader(headers, scheme.signatureHeader, true));
  let timestamp: string | undefined;
  let where = '';
  if (scheme.timestampHeader !== null) {
    timestamp = readHeader(headers, scheme.timestampHeader);
    where = `Header ${scheme.timestampHeader}`;
  } else if (scheme.timestampPrefix !== null) {
    timestamp = signature.timestamp;
    where = `The "${scheme.timestampPrefix}" entry of header ${scheme.signatureHeader}`;
    if (timestamp === undefined) {
      throw new WebhookVerificationError(
        'malformed_signature',
        `Header ${scheme.signatureHeader} has no "${scheme.timestampPrefix}<seconds>" timestamp entry.`,
      );
    }
  }
  if (timestamp !== undefined && !WEBHOOK_TIMESTAMP.test(timestamp)) {
    throw new WebhookVerificationError(
      'malformed_timestamp',
      `${where} must be integer Unix seconds (no sign, fraction or milliseconds).`,
    );
  }
  return {
    id,
    timestamp,
    seconds: timestamp === undefined ? undefined : Number(timestamp),
    candidates: signature.candidates,
  };
}
