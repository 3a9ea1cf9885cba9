import { resolveWebhookScheme } from '../webhooks/scheme/resolve-webhook-scheme.js';
import type { WebhookScheme, WebhookSchemeInput } from '../webhooks/scheme/webhook-scheme.js';
import { decodeSecret } from '../webhooks/secret.js';
import { WebhookVerificationError } from '../webhooks/webhook-verification-error.js';
import type { WebhookSender } from './webhooks/webhook-sender.js';
import type { EmittedEvent, WebhookDelivery, WebhookEndpoint } from './webhooks/webhook-types.js';

/**
 * Webhook registration and what happened to every event. The spec shows no registration endpoint, so
 * registering is a test-side call here.
 */
export class FakeWebhooks {
  readonly #sender: WebhookSender;
  readonly #events: EmittedEvent[];
  #lastSecret: string | undefined;

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

  /**
   * Points every later event at one target, replacing all endpoints (`url: null`: none), and optionally
   * switches the signing scheme. What is left out is kept: the current URL, the current secret (or the
   * last one given, even with no target) when the scheme can use it, else a new one. Everything is checked
   * before anything changes. Returns the endpoint and whether its secret was generated here.
   * @example
   * ```ts
   * fake.webhooks.setTarget({ url: `${receiverUrl}/hooks`, secret: 'whsec_…' });
   * fake.webhooks.setTarget({ scheme: 'stripe', secret: 'whsec_…' }); // same URL, another scheme
   * ```
   */
  setTarget(options: {
    url?: string | null | undefined;
    secret?: string | undefined;
    scheme?: WebhookSchemeInput | undefined;
  }): { endpoint: WebhookEndpoint | undefined; secretGenerated: boolean } {
    const current = this.#sender.endpoints[0];
    const url = options.url === undefined ? (current?.url ?? null) : options.url;
    if (options.url === undefined && options.secret === undefined && options.scheme === undefined) {
      return { endpoint: current, secretGenerated: false };
    }
    const scheme = checked('scheme', () =>
      options.scheme === undefined ? this.#sender.scheme : resolveWebhookScheme(options.scheme),
    );
    if (options.secret !== undefined)
      checked('secret', () => decodeSecret(options.secret, scheme.secretEncoding));
    const kept = options.secret ?? usable(current?.secret ?? this.#lastSecret, scheme);
    const endpoint = this.#sender.retarget(url, kept, scheme);
    this.#lastSecret = endpoint?.secret ?? kept;
    return { endpoint, secretGenerated: endpoint !== undefined && kept === undefined };
  }

  /** The scheme later deliveries are signed in (`setTarget({ scheme })` changes it). */
  get scheme(): WebhookScheme {
    return this.#sender.scheme;
  }

  /** The registered endpoints, secrets included (in-process only: the admin API never shows them). */
  get endpoints(): readonly WebhookEndpoint[] {
    return this.#sender.endpoints;
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

/** `secret` when `scheme` can sign with it, else undefined (a new one is then generated). */
function usable(secret: string | undefined, scheme: WebhookScheme): string | undefined {
  if (secret === undefined) return undefined;
  try {
    decodeSecret(secret, scheme.secretEncoding);
    return secret;
  } catch {
    return undefined;
  }
}

/** Runs `check`, turning the webhooks entry's refusal into a TypeError naming the input (a 400 over HTTP). */
function checked<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new TypeError(`${field}: ${error.message}`);
    throw error;
  }
}
