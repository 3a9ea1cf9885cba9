import type { KnownWebhookEvent, KnownWebhookEventType, WebhookEvent } from './events.js';
import type { WebhookRequestHeaders } from './read-header.js';
import type { RawBody } from './signed-content.js';
import type { Webhook } from './webhook.js';
import { MemoryWebhookIdStore, type WebhookIdStore } from './webhook-id-store.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** Options of {@link WebhookReceiver}. */
export interface WebhookReceiverOptions {
  /**
   * Where handled `webhook-id`s are remembered; `false` turns de-duplication off.
   * @default new MemoryWebhookIdStore({ now })
   */
  idStore?: WebhookIdStore | false;
  /**
   * How long a handled id is remembered, in seconds; at least the webhook's tolerance. The default outlasts
   * the service's whole retry schedule (30 s, 5 min, 30 min, 2 h, 12 h).
   * @default 86_400
   */
  idTtlSeconds?: number;
  /** Clock of the default store, in epoch milliseconds. @default Date.now */
  now?: () => number | Date;
}

/** Where an error reported to `onError` came from. */
export interface WebhookErrorContext {
  stage: 'verify' | 'handler' | 'store';
  /** The verified event, for `handler` and `store` errors. */
  event?: WebhookEvent;
}

/**
 * How a delivery was answered: `status` and plain-text `body` are what the adapters send. Refusals say
 * nothing specific (`400 Invalid webhook`): details go to `onError`, never to the caller.
 */
export interface WebhookReceipt {
  status: 204 | 400 | 409 | 500;
  body: string;
  outcome: 'handled' | 'duplicate' | 'in_progress' | 'rejected' | 'failed';
  event?: WebhookEvent;
}

/** A handler of verified events; the delivery is answered once it settles (a throw or rejection answers 500). */
export type WebhookHandler<E> = (event: E) => unknown;
/** Hears refusals and failures with the stage they happened in; what it returns or throws is ignored. */
export type WebhookErrorHandler = (error: unknown, context: WebhookErrorContext) => unknown;

const DEFAULT_ID_TTL_SECONDS = 86_400;

function isDeveloperMistake(error: unknown, stage: WebhookErrorContext['stage']): boolean {
  if (stage !== 'verify') return true;
  return !(error instanceof WebhookVerificationError) || error.reason === 'body_not_raw';
}

/**
 * Verifies deliveries and dispatches them to typed handlers, once per `webhook-id`. Answers: `204` handled
 * (or a duplicate of a handled one), `400` refused, `409` the same id is being handled right now (the sender
 * retries later), `500` a handler or the id store failed (the sender retries). Events with no handler are
 * acknowledged. Handlers run in registration order, `on` handlers before `onAny` ones.
 *
 * Without an `onError` handler, only developer mistakes (body parsed before verification, handler and store
 * failures) are written to `console.error`; forged or stale requests are not logged.
 *
 * @example
 * ```ts
 * const receiver = new WebhookReceiver(new Webhook({ secret }))
 *   .on('spv_request.completed', async (event) => { await markSpvReady(event.data.spvSlug); })
 *   .onAny((event) => { if (!event.known) console.info('new event type', event.type); })
 *   .onError((error, { stage }) => logger.warn('webhook refused', { stage, error }));
 * ```
 */
export class WebhookReceiver {
  readonly #webhook: Pick<Webhook, 'verify' | 'toleranceSeconds'>;
  readonly #store: WebhookIdStore | undefined;
  readonly #ttl: number;
  readonly #handlers = new Map<string, WebhookHandler<never>[]>();
  readonly #anyHandlers: WebhookHandler<WebhookEvent>[] = [];
  readonly #errorHandlers: WebhookErrorHandler[] = [];

  constructor(webhook: Pick<Webhook, 'verify' | 'toleranceSeconds'>, options: WebhookReceiverOptions = {}) {
    this.#webhook = webhook;
    const ttl = options.idTtlSeconds ?? Math.max(DEFAULT_ID_TTL_SECONDS, webhook.toleranceSeconds);
    if (!Number.isFinite(ttl) || ttl < webhook.toleranceSeconds) {
      throw new RangeError(
        `idTtlSeconds must be at least the webhook tolerance (${webhook.toleranceSeconds} s).`,
      );
    }
    this.#ttl = ttl;
    this.#store =
      options.idStore === false
        ? undefined
        : (options.idStore ?? new MemoryWebhookIdStore(options.now ? { now: options.now } : {}));
  }

  /** Runs `handler` for every verified event of `type`. */
  on<T extends KnownWebhookEventType>(type: T, handler: WebhookHandler<KnownWebhookEvent<T>>): this;
  /** Runs `handler` for a type this SDK version does not know yet. */
  on(type: string, handler: WebhookHandler<WebhookEvent>): this;
  on(type: string, handler: WebhookHandler<never>): this {
    const list = this.#handlers.get(type) ?? [];
    list.push(handler);
    this.#handlers.set(type, list);
    return this;
  }

  /** Runs `handler` for every verified event, known or not, after the type's own handlers. */
  onAny(handler: WebhookHandler<WebhookEvent>): this {
    this.#anyHandlers.push(handler);
    return this;
  }

  /** Hears every refusal and failure, with the stage it happened in. */
  onError(handler: WebhookErrorHandler): this {
    this.#errorHandlers.push(handler);
    return this;
  }

  /** Verifies, de-duplicates and dispatches one delivery; framework adapters call this. */
  async receive(rawBody: RawBody, headers: WebhookRequestHeaders): Promise<WebhookReceipt> {
    let event: WebhookEvent;
    try {
      event = await this.#webhook.verify(rawBody, headers);
    } catch (error) {
      await this.#report(error, { stage: 'verify' });
      return error instanceof WebhookVerificationError
        ? { status: 400, body: 'Invalid webhook', outcome: 'rejected' }
        : { status: 500, body: 'Webhook verification failed', outcome: 'failed' };
    }
    const id = event.webhookId;
    if (this.#store) {
      try {
        const state = await this.#store.claim(id, this.#ttl);
        if (state === 'done') return { status: 204, body: '', outcome: 'duplicate', event };
        if (state === 'in_progress') {
          return { status: 409, body: 'Webhook already being processed', outcome: 'in_progress', event };
        }
      } catch (error) {
        await this.#report(error, { stage: 'store', event });
        return { status: 500, body: 'Webhook store failed', outcome: 'failed', event };
      }
    }
    try {
      for (const handler of this.#handlers.get(event.type) ?? [])
        await (handler as WebhookHandler<WebhookEvent>)(event);
      for (const handler of this.#anyHandlers) await handler(event);
    } catch (error) {
      try {
        await this.#store?.release(id);
      } catch (releaseError) {
        await this.#report(releaseError, { stage: 'store', event });
      }
      await this.#report(error, { stage: 'handler', event });
      return { status: 500, body: 'Webhook handler failed', outcome: 'failed', event };
    }
    try {
      await this.#store?.complete(id, this.#ttl);
    } catch (error) {
      // The handlers ran; acknowledging avoids a redelivery the store could not have stopped anyway.
      await this.#report(error, { stage: 'store', event });
    }
    return { status: 204, body: '', outcome: 'handled', event };
  }

  async #report(error: unknown, context: WebhookErrorContext): Promise<void> {
    if (this.#errorHandlers.length === 0) {
      if (isDeveloperMistake(error, context.stage))
        console.error(`[partner-equity webhooks] ${context.stage}:`, error);
      return;
    }
    for (const handler of this.#errorHandlers) {
      try {
        await handler(error, context);
      } catch {
        // An error handler that throws must not turn a refusal into a crash of the adapter.
      }
    }
  }
}
