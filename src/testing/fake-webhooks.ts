import type { WebhookSender } from './webhooks/webhook-sender.js';
import type { EmittedEvent, WebhookDelivery, WebhookEndpoint } from './webhooks/webhook-types.js';

/**
 * Webhook registration and what happened to every event. The spec shows no registration endpoint, so
 * registering is a test-side call here.
 */
export class FakeWebhooks {
  readonly #sender: WebhookSender;
  readonly #events: EmittedEvent[];

  /** @internal */
  constructor(sender: WebhookSender, events: EmittedEvent[]) {
    this.#sender = sender;
    this.#events = events;
  }

  /**
   * Sends every later event (only `clientId`'s, when given) to `url`, signed in the fake's webhook scheme
   * with `secret` (generated when omitted: `whsec_<base64 of 24 random bytes>` for the default scheme, 32
   * random base64url characters for raw-string schemes). Returns the endpoint, secret included. A secret
   * the scheme cannot use (too short, wrong encoding) is refused here.
   * @example
   * ```ts
   * const { secret } = fake.webhooks.register({ url: `${receiverUrl}/hooks` });
   * const webhook = new Webhook({ secret });
   * ```
   */
  register(options: { url: string; secret?: string; clientId?: string }): WebhookEndpoint {
    return this.#sender.register(options);
  }

  /** Stops sending to an endpoint (pending retries still run). */
  unregister(endpointId: string): void {
    this.#sender.unregister(endpointId);
  }

  /** Every event emitted, in order, registered endpoints or not. */
  get events(): readonly EmittedEvent[] {
    return this.#events;
  }

  /** Every (event, endpoint) delivery with its attempts. */
  get deliveries(): readonly WebhookDelivery[] {
    return this.#sender.deliveries;
  }

  /** Deliveries that failed all 6 attempts (initial + 5 retries). */
  get deadLetters(): readonly WebhookDelivery[] {
    return this.#sender.deliveries.filter((d) => d.state === 'dead-lettered');
  }

  /** Resolves when no delivery attempt is in flight; retries wait for `fake.clock.advance(…)`. */
  flush(): Promise<void> {
    return this.#sender.flush();
  }
}
