/**
 * Why a webhook was refused. Stable strings: branch on these, not on `message`.
 *
 * - `body_not_raw` — the body was not a `string`, `Uint8Array` or `ArrayBuffer` (usually a body parser ran first).
 * - `missing_header` — the scheme's id, timestamp or signature header is absent or empty.
 * - `malformed_header` — a header was repeated with different values, or the id is not a usable id.
 * - `malformed_timestamp` — the timestamp is not plain integer seconds (no sign, fraction, milliseconds or junk).
 * - `timestamp_too_old` / `timestamp_too_new` — the signature is valid but the timestamp is outside the
 *   tolerance window (see `signatureMatched` and `skewSeconds`).
 * - `malformed_signature` — no well-formed signature entry, more entries than the cap, or two timestamps.
 * - `no_matching_signature` — well-formed, but no entry matches any configured secret.
 * - `malformed_secret` — a configured secret is not in the scheme's encoding or too short (thrown by the
 *   `Webhook` constructor).
 * - `invalid_scheme` — the `scheme` option is not a usable scheme (thrown by the constructor).
 *
 * A verified body is never refused for what it says: there is no payload reason.
 */
export type WebhookVerificationReason =
  | 'body_not_raw'
  | 'missing_header'
  | 'malformed_header'
  | 'malformed_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'malformed_signature'
  | 'no_matching_signature'
  | 'malformed_secret'
  | 'invalid_scheme';

/** Extra facts some refusals carry. */
export interface WebhookVerificationErrorDetails {
  /** Timestamp minus now, in seconds (negative: in the past); set for timestamp refusals. */
  skewSeconds?: number;
  /** The tolerance that was exceeded, in seconds. */
  toleranceSeconds?: number;
  /** For timestamp refusals: the signature is valid for the timestamp it claims (sender-made, but stale). */
  signatureMatched?: boolean;
  cause?: unknown;
}

/**
 * Thrown when a webhook cannot be trusted. The message says what is wrong in terms a developer can act on,
 * but never carries a secret or the signature the SDK expected.
 *
 * @example
 * ```ts
 * try {
 *   await webhook.verify(rawBody, headers);
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError && error.reason === 'timestamp_too_old' && error.signatureMatched) {
 *     // authentic but old: a replay, or a sender re-sending the original signed bytes (raise toleranceSeconds)
 *   }
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  /** Machine-readable cause. */
  readonly reason: WebhookVerificationReason;
  /** Timestamp minus now, in seconds, for `timestamp_too_old` / `timestamp_too_new`. */
  readonly skewSeconds: number | undefined;
  /** The tolerance exceeded, in seconds, for `timestamp_too_old` / `timestamp_too_new`. */
  readonly toleranceSeconds: number | undefined;
  /** `true` when a timestamp refusal carried a valid signature: the sender made it, only its time is off. */
  readonly signatureMatched: boolean;

  constructor(
    reason: WebhookVerificationReason,
    message: string,
    details: WebhookVerificationErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.skewSeconds = details.skewSeconds;
    this.toleranceSeconds = details.toleranceSeconds;
    this.signatureMatched = details.signatureMatched ?? false;
  }
}
