/**
 * Why a webhook was refused. Stable strings: branch on these, not on `message`.
 *
 * - `body_not_raw` — the body was not a `string`, `Uint8Array` or `ArrayBuffer` (usually a body parser ran first).
 * - `missing_header` — `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty.
 * - `malformed_header` — a header was repeated with different values, or `webhook-id` is not a usable id.
 * - `malformed_timestamp` — `webhook-timestamp` is not plain integer seconds (no sign, fraction, milliseconds or junk).
 * - `timestamp_too_old` / `timestamp_too_new` — outside the tolerance window, on either side of the clock.
 * - `malformed_signature` — no well-formed `v1,<base64>` entry, or more entries than the cap.
 * - `no_matching_signature` — well-formed, but no entry matches any configured secret.
 * - `malformed_secret` — a configured secret is not `whsec_<base64>` (thrown by the `Webhook` constructor).
 * - `malformed_payload` — the signature matched but the body is not a JSON `{ type, timestamp, data }` envelope.
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
  | 'malformed_payload';

/**
 * Thrown when a webhook cannot be trusted or read. The message says what is wrong in terms a developer can
 * act on, but never carries a secret or the signature the SDK expected.
 *
 * @example
 * ```ts
 * try {
 *   await webhook.verify(rawBody, headers);
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError && error.reason === 'timestamp_too_old') {
 *     // a replayed or long-delayed delivery
 *   }
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  /** Machine-readable cause. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
