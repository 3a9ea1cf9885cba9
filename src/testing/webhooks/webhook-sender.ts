import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import type { WebhookScheme } from '../../webhooks/scheme/webhook-scheme.js';
import { decodeSecret } from '../../webhooks/secret.js';
import { type SignedWebhookHeaders, signWebhook } from '../../webhooks/sign.js';
import { randomId } from '../ids.js';
import type { ManualClock } from '../manual-clock.js';
import type { FakeWebhookSettings } from './fake-webhook-options.js';
import type { DeliveryAttempt, EmittedEvent, WebhookDelivery, WebhookEndpoint } from './webhook-types.js';

/** Waits after failed attempts 1-5 (spec): 30 s, 5 min, 30 min, 2 h, 12 h; then the dead-letter list. */
export const WEBHOOK_RETRY_DELAYS_MS = [30_000, 300_000, 1_800_000, 7_200_000, 43_200_000] as const;

/** A new secret in the scheme's encoding: 24 random bytes as `whsec_<base64>`, base64, or 32 base64url characters. */
function newSecret(encoding: FakeWebhookSettings['scheme']['secretEncoding']): string {
  const bytes = randomBytes(24);
  if (encoding === 'raw') return bytes.toString('base64url');
  return `${encoding === 'whsec' ? 'whsec_' : ''}${bytes.toString('base64')}`;
}

/**
 * Delivers events to registered endpoints: JSON `{ type, timestamp, data }`, signed by the SDK's own
 * `signWebhook` in the configured scheme (Standard Webhooks by default), POSTed with undici (which MSW does
 * not intercept, so deliveries reach real receivers even while MSW is active). Any 2xx is a success;
 * anything else, or no answer within the timeout, is retried on the fake's clock — re-signed with a fresh
 * timestamp, or (`retrySigning: 'original'`) with the first attempt's bytes and headers.
 */
export class WebhookSender {
  readonly #clock: ManualClock;
  readonly #now: () => number;
  readonly #timeoutMs: number;
  readonly #agent = new Agent({ keepAliveTimeout: 1_000 });
  readonly #endpoints: WebhookEndpoint[] = [];
  readonly #deliveries: WebhookDelivery[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #timers = new Set<() => void>();
  readonly #settings: FakeWebhookSettings;
  // With `retrySigning: 'original'`, the first attempt's headers, re-sent by every retry.
  readonly #firstSignature = new WeakMap<WebhookDelivery, { headers: SignedWebhookHeaders; at: number }>();

  constructor(clock: ManualClock, now: () => number, timeoutMs: number, settings: FakeWebhookSettings) {
    this.#clock = clock;
    this.#now = now;
    this.#timeoutMs = timeoutMs;
    this.#settings = settings;
  }

  register(options: { url: string; secret?: string; clientId?: string }): WebhookEndpoint {
    const endpoint = this.#endpoint(options, this.#settings.scheme);
    this.#endpoints.push(endpoint);
    return endpoint;
  }

  /** The signing scheme of every later attempt (retries included). */
  get scheme(): WebhookScheme {
    return this.#settings.scheme;
  }

  get endpoints(): readonly WebhookEndpoint[] {
    return this.#endpoints;
  }

  /**
   * Replaces every endpoint with one (none when `url` is null) and switches to `scheme`; everything is
   * checked before anything changes, so a refused call leaves the old target delivering.
   */
  retarget(
    url: string | null,
    secret: string | undefined,
    scheme: WebhookScheme,
  ): WebhookEndpoint | undefined {
    const endpoint = url === null ? undefined : this.#endpoint({ url, ...(secret && { secret }) }, scheme);
    this.#settings.scheme = scheme;
    this.#endpoints.splice(0, this.#endpoints.length, ...(endpoint === undefined ? [] : [endpoint]));
    return endpoint;
  }

  #endpoint(
    options: { url: string; secret?: string; clientId?: string },
    scheme: WebhookScheme,
  ): WebhookEndpoint {
    const url = new URL(options.url);
    // A secret the receiver could not use fails here, not as six refused deliveries.
    if (options.secret !== undefined) decodeSecret(options.secret, scheme.secretEncoding);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError('Webhook URLs must be http(s)');
    return {
      id: randomId('ep'),
      url: url.href,
      secret: options.secret ?? newSecret(scheme.secretEncoding),
      ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
    };
  }

  unregister(id: string): void {
    const index = this.#endpoints.findIndex((e) => e.id === id);
    if (index >= 0) this.#endpoints.splice(index, 1);
  }

  get deliveries(): readonly WebhookDelivery[] {
    return this.#deliveries;
  }

  /** Starts delivering `event` to every matching endpoint (first attempt right away). */
  dispatch(event: EmittedEvent): void {
    for (const endpoint of this.#endpoints) {
      if (endpoint.clientId !== undefined && endpoint.clientId !== event.clientId) continue;
      const delivery: WebhookDelivery = {
        eventId: event.id,
        eventType: event.type,
        endpointId: endpoint.id,
        url: endpoint.url,
        attempts: [],
        state: 'pending',
      };
      this.#deliveries.push(delivery);
      this.#attempt(event, endpoint, delivery);
    }
  }

  /** Resolves once no delivery attempt is in flight (including attempts started while waiting). */
  async flush(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async close(): Promise<void> {
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
    await this.flush();
    await this.#agent.close?.(); // Bun's built-in `undici` shim: an `Agent` without `close()`
  }

  #attempt(event: EmittedEvent, endpoint: WebhookEndpoint, delivery: WebhookDelivery): void {
    const run = this.#send(event, endpoint, delivery).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
  }

  async #send(event: EmittedEvent, endpoint: WebhookEndpoint, delivery: WebhookDelivery): Promise<void> {
    const at = this.#now();
    const attempt: DeliveryAttempt = { attempt: delivery.attempts.length + 1, at };
    delivery.attempts.push(attempt);
    delete delivery.nextAttemptAt;
    try {
      const signed = await this.#sign(event, endpoint, delivery, at);
      attempt.signedAt = signed.at;
      const response = await request(endpoint.url, {
        method: 'POST',
        dispatcher: this.#agent,
        headers: {
          ...signed.headers,
          'content-type': 'application/json',
          'user-agent': 'partner-equity-fake-webhooks/1',
          // MSW's bypass marker. A delivery started while MSW handles a request runs in MSW's async context
          // and would be intercepted (and refused under `onUnhandledFrame: 'error'`); the marker sends it on
          // to the real receiver, and MSW strips it first.
          accept: 'msw/passthrough',
        },
        body: event.body,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      // Bun's built-in `undici` shim has no `dump()`: dropping the unread answer there does the same.
      if (typeof response.body.dump === 'function') await response.body.dump();
      else response.body.destroy();
      attempt.status = response.statusCode;
    } catch (error) {
      attempt.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    if (attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300) {
      delivery.state = 'delivered';
      return;
    }
    const delay = WEBHOOK_RETRY_DELAYS_MS[delivery.attempts.length - 1];
    if (delay === undefined) {
      delivery.state = 'dead-lettered';
      return;
    }
    delivery.nextAttemptAt = this.#now() + delay;
    const cancel = this.#clock.schedule(delay, () => {
      this.#timers.delete(cancel);
      this.#attempt(event, endpoint, delivery);
    });
    this.#timers.add(cancel);
  }

  /** This attempt's headers: signed now, or the first attempt's again under `retrySigning: 'original'`. */
  async #sign(
    event: EmittedEvent,
    endpoint: WebhookEndpoint,
    delivery: WebhookDelivery,
    at: number,
  ): Promise<{ headers: SignedWebhookHeaders; at: number }> {
    const first = this.#firstSignature.get(delivery);
    if (first !== undefined && this.#settings.retrySigning === 'original') return first;
    const headers = await signWebhook({
      secret: endpoint.secret,
      id: event.id,
      timestamp: Math.floor(at / 1000),
      payload: event.body,
      scheme: this.#settings.scheme,
    });
    const signed = { headers, at };
    if (first === undefined) this.#firstSignature.set(delivery, signed);
    return signed;
  }
}
