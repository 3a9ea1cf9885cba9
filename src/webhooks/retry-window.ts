/**
 * Seconds from a message's first delivery attempt to its last retry on the spec's schedule (30 s, 5 min,
 * 30 min, 2 h, 12 h: 52,530 s, about 14.6 h). A sender that re-sends the original signed bytes on retries
 * needs a `toleranceSeconds` of at least this, plus a margin for delivery time and clock skew.
 *
 * @example
 * ```ts
 * // The service re-sends original signatures: accept its last retry; de-duplication stops replays instead.
 * const webhook = new Webhook({ secret, toleranceSeconds: WEBHOOK_RETRY_WINDOW_SECONDS + 300 });
 * ```
 */
export const WEBHOOK_RETRY_WINDOW_SECONDS = 52_530;

/** What an operator should do about an authentic delivery whose timestamp is too old. */
export function staleAdvice(toleranceSeconds: number): string {
  return (
    `If the sender re-sends the original signed delivery on retries, set toleranceSeconds to at least ` +
    `${WEBHOOK_RETRY_WINDOW_SECONDS + 300} (its retry window, ${WEBHOOK_RETRY_WINDOW_SECONDS} s, plus 300 s; now ${toleranceSeconds}) ` +
    'and keep de-duplication on; otherwise this is a replay and refusing it is right.'
  );
}
