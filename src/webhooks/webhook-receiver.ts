import { type SdkSpan, startSpan, type TracerProviderLike, Tracing, within } from '../tracing/tracing.js';
import { DOCTOR_PROBE_EVENT_TYPE } from './doctor-probe.js';
import type { KnownWebhookEvent, RecognisedWebhookEvent, WebhookEvent } from './event-union.js';
import type { KnownWebhookEventType } from './events.js';
import type { WebhookRequestHeaders } from './read-header.js';
import type { RawBody } from './signed-content.js';
import { unexpectedShape } from './unexpected-shape.js';
import type { Webhook } from './webhook.js';
import { MemoryWebhookIdStore, type WebhookIdStore } from './webhook-id-store.js';
import { ReceiverLog, type WebhookLogger } from './webhook-logger.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** Options of {@link WebhookReceiver}. */
export interface WebhookReceiverOptions {
  /**
   * Where handled message ids are remembered; `false` turns de-duplication off.
   * @default new MemoryWebhookIdStore({ now })
   */
  idStore?: WebhookIdStore | false | undefined;
  /**
   * How long a handled id is remembered, in seconds; at least the webhook's tolerance. The default outlasts
   * the service's whole retry schedule (30 s, 5 min, 30 min, 2 h, 12 h).
   * @default 86_400
   */
  idTtlSeconds?: number | undefined;
  /** Clock of the default store, in epoch milliseconds. @default Date.now */
  now?: (() => number | Date) | undefined;
  /** Where operator lines go (see {@link WebhookLogger}). @default console */
  logger?: WebhookLogger | undefined;
  /**
   * The OpenTelemetry tracer provider for the CONSUMER span of each delivery; tracing is off without it and
   * without a global provider (or without `@opentelemetry/api`). See docs/observability.md.
   * @default the global tracer provider
   */
  tracerProvider?: TracerProviderLike | undefined;
}

/** Where an error reported to `onError` came from. */
export interface WebhookErrorContext {
  stage: 'verify' | 'handler' | 'store';
  /** The verified event, for `handler` and `store` errors. */
  event?: WebhookEvent;
}

/**
 * How a delivery was answered: `status` and plain-text `body` are what the adapters send. Refusals say
 * nothing specific (`400 Invalid webhook`) — details go to `onError` — except an authentic delivery refused
 * for its timestamp, whose answer tells the sender's operator what to configure.
 */
export interface WebhookReceipt {
  status: 204 | 400 | 409 | 500 | 503;
  body: string;
  outcome: 'handled' | 'duplicate' | 'in_progress' | 'rejected' | 'failed' | 'unavailable';
  event?: WebhookEvent;
}

/** A handler of verified events; the delivery is answered once it settles (a throw or rejection answers 500). */
export type WebhookHandler<E> = (event: E) => unknown;
/**
 * Hears refusals and failures with the stage they happened in; what it returns or throws is ignored. A
 * refused delivery is a {@link WebhookVerificationError} (`error.reason` says why); a handler that threw
 * something other than an `Error` is reported as an `Error` whose `cause` is the value thrown.
 */
export type WebhookErrorHandler = (error: Error, context: WebhookErrorContext) => unknown;

const DEFAULT_ID_TTL_SECONDS = 86_400;

// The answer on the delivery's span (refusals and handler failures marked it failed where they happened).
function describeReceipt(receipt: WebhookReceipt, span: SdkSpan): void {
  span.set({
    'partner_equity.webhook.outcome': receipt.outcome,
    'http.response.status_code': receipt.status,
  });
  if (receipt.outcome === 'unavailable') span.fail('id_store_unavailable', receipt.body);
}

function isDeveloperMistake(error: unknown, stage: WebhookErrorContext['stage']): boolean {
  if (stage !== 'verify') return true;
  return !(error instanceof WebhookVerificationError) || error.reason === 'body_not_raw';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Verifies deliveries and dispatches them to typed handlers, once per message id. Every verified delivery
 * is acknowledged once its handlers succeed, whatever its body: known events go to `on(type)` then `onAny`
 * handlers, unknown types and bodies outside the envelope to `onAny` (and a line is logged once per kind).
 *
 * Answers: `204` handled, a duplicate of a handled id, or no handler; `400` a bad signature or timestamp
 * (or a body parsed before verification); `409` the same id is being handled right now; `500` a handler
 * failed; `503` the id store is unavailable — the sender retries all three.
 *
 * @example
 * ```ts
 * const receiver = new WebhookReceiver(new Webhook({ secret }))
 *   .on('spv_request.completed', async (event) => { await markSpvReady(event.data.spvRequestSlug); })
 *   .onAny((event) => { if (!event.known) console.info('not typed by this SDK', event.type ?? event.problem); })
 *   .onError((error, { stage }) => logger.warn('webhook refused', { stage, error }));
 * ```
 */
export class WebhookReceiver {
  readonly #webhook: Pick<Webhook, 'verify' | 'toleranceSeconds'>;
  readonly #store: WebhookIdStore | undefined;
  readonly #ttl: number;
  readonly #log: ReceiverLog;
  readonly #handlers = new Map<string, WebhookHandler<never>[]>();
  readonly #anyHandlers: WebhookHandler<WebhookEvent>[] = [];
  readonly #errorHandlers: WebhookErrorHandler[] = [];
  readonly #tracing: Tracing;

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
    this.#log = new ReceiverLog(options.logger ?? console);
    this.#tracing = new Tracing({ tracerProvider: options.tracerProvider });
  }

  /** Runs `handler` for every verified event of `type`. */
  on<T extends KnownWebhookEventType>(type: T, handler: WebhookHandler<KnownWebhookEvent<T>>): this;
  /** Runs `handler` for events of a type this SDK version does not know yet. */
  on(type: string, handler: WebhookHandler<RecognisedWebhookEvent>): this;
  on(type: string, handler: WebhookHandler<never>): this {
    const list = this.#handlers.get(type) ?? [];
    list.push(handler);
    this.#handlers.set(type, list);
    return this;
  }

  /** Runs `handler` for every verified delivery — known, unknown or unrecognised — after the type's own handlers. */
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
  receive(rawBody: RawBody, headers: WebhookRequestHeaders): Promise<WebhookReceipt> {
    const tracing = this.#tracing;
    // Tracing off: the delivery is handled exactly as without it (no extra await before verifying).
    if (tracing.loading === undefined && !tracing.enabled) return this.#receive(rawBody, headers);
    return startSpan(tracing, 'webhooks.receive', 'consumer', { 'messaging.operation.type': 'process' }).then(
      (span) => within(span, () => this.#receive(rawBody, headers, span), describeReceipt),
    );
  }

  async #receive(rawBody: RawBody, headers: WebhookRequestHeaders, span?: SdkSpan): Promise<WebhookReceipt> {
    let event: WebhookEvent;
    try {
      event = await this.#webhook.verify(rawBody, headers);
    } catch (error) {
      const reason = error instanceof WebhookVerificationError ? error.reason : 'verification_failed';
      span?.set({ 'partner_equity.webhook.verification': reason });
      span?.fail(reason, `Webhook refused: ${reason}`);
      await this.#report(error, { stage: 'verify' });
      if (!(error instanceof WebhookVerificationError)) {
        return { status: 500, body: 'Webhook verification failed', outcome: 'failed' };
      }
      if (error.signatureMatched) {
        // Authentic but outside the tolerance: the one refusal whose reason helps the sender's operator.
        this.#log.warn(`Refused an authentic webhook (${error.reason}): ${error.message}`, {
          reason: error.reason,
          skewSeconds: error.skewSeconds,
          toleranceSeconds: error.toleranceSeconds,
        });
        return { status: 400, body: error.message, outcome: 'rejected' };
      }
      return { status: 400, body: 'Invalid webhook', outcome: 'rejected' };
    }
    span?.set({
      'partner_equity.webhook.verification': 'verified',
      'messaging.message.id': event.webhookId,
      'partner_equity.webhook.event_type': event.recognised ? event.type : 'unrecognised',
    });
    // The doctor's probe: acknowledged as a receiver should, but no event of the service for handlers.
    if (event.recognised && event.type === DOCTOR_PROBE_EVENT_TYPE) {
      return { status: 204, body: '', outcome: 'handled', event };
    }
    const receipt = await this.#deliver(event, span);
    const shape = unexpectedShape(event);
    if (shape) {
      // Said once per kind, for runs and non-runs apart: each line tells what this delivery's answer was.
      const ran = receipt.outcome === 'handled' || receipt.outcome === 'failed';
      const key = ran ? shape.key : `${shape.key}:not run`;
      const what = this.#consequence(receipt, event, shape.delivery);
      this.#log.warnOnce(key, `${shape.message}; ${what}.`, { webhookId: event.webhookId });
    }
    return receipt;
  }

  /** What became of a delivery with an unexpected shape, as its answer says. */
  #consequence(receipt: WebhookReceipt, event: WebhookEvent, delivery: string): string {
    switch (receipt.outcome) {
      case 'duplicate':
        return 'a duplicate of a delivery already handled: acknowledged (204), no handler run';
      case 'in_progress':
        return 'already being handled: answered 409, no handler run (the sender retries)';
      case 'unavailable':
        return 'the id store is unavailable: answered 503, no handler run (the sender retries)';
      case 'failed':
        return `${delivery}; a handler failed: answered 500 (the sender retries)`;
      default: {
        const typed = event.recognised ? (this.#handlers.get(event.type)?.length ?? 0) : 0;
        return typed + this.#anyHandlers.length === 0
          ? 'acknowledged (204); no handler is registered for it'
          : `acknowledged (204) and ${delivery}`;
      }
    }
  }

  /** Claims the delivery's id and runs its handlers: the answer, once the event is verified. */
  async #deliver(event: WebhookEvent, span: SdkSpan | undefined): Promise<WebhookReceipt> {
    const id = event.webhookId;
    if (this.#store) {
      try {
        const state = await this.#store.claim(id, this.#ttl);
        span?.set({ 'partner_equity.webhook.duplicate': state });
        if (state === 'done') return { status: 204, body: '', outcome: 'duplicate', event };
        if (state === 'in_progress') {
          return { status: 409, body: 'Webhook already being processed', outcome: 'in_progress', event };
        }
      } catch (error) {
        await this.#storeFailed(error, event, 'answering 503 so the sender retries');
        return { status: 503, body: 'Webhook id store unavailable', outcome: 'unavailable', event };
      }
    }
    const started = performance.now();
    const handled = (outcome: string) =>
      span?.set({
        'partner_equity.webhook.handler.outcome': outcome,
        // Tenths of a millisecond: the precision a handler's time is read at, not the timer's.
        'partner_equity.webhook.handler.duration_ms': Math.round((performance.now() - started) * 10) / 10,
      });
    try {
      if (event.recognised) {
        for (const handler of this.#handlers.get(event.type) ?? [])
          await (handler as WebhookHandler<WebhookEvent>)(event);
      }
      for (const handler of this.#anyHandlers) await handler(event);
      handled('ok');
    } catch (error) {
      handled('error');
      // The class name only: a handler's message is the partner's text, which this span cannot vouch for.
      span?.fail(error instanceof Error ? error.name : typeof error, 'Webhook handler failed');
      try {
        await this.#store?.release(id);
      } catch (releaseError) {
        await this.#storeFailed(releaseError, event, 'the id stays claimed until its lease ends');
      }
      await this.#report(error, { stage: 'handler', event });
      return { status: 500, body: 'Webhook handler failed', outcome: 'failed', event };
    }
    try {
      await this.#store?.complete(id, this.#ttl);
    } catch (error) {
      // The handlers ran; acknowledging avoids a redelivery the store could not have stopped anyway.
      await this.#storeFailed(error, event, 'acknowledged anyway: the handlers succeeded');
    }
    return { status: 204, body: '', outcome: 'handled', event };
  }

  async #storeFailed(error: unknown, event: WebhookEvent, consequence: string): Promise<void> {
    this.#log.error(`Webhook id store unavailable (${messageOf(error)}); ${consequence}.`, {
      webhookId: event.webhookId,
    });
    await this.#report(error, { stage: 'store', event }, false);
  }

  async #report(error: unknown, context: WebhookErrorContext, logWithoutHandlers = true): Promise<void> {
    if (this.#errorHandlers.length === 0) {
      if (logWithoutHandlers && isDeveloperMistake(error, context.stage)) {
        this.#log.error(`${context.stage} failed: ${messageOf(error)}`, {
          stage: context.stage,
          webhookId: context.event?.webhookId,
          error,
        });
      }
      return;
    }
    const reported = error instanceof Error ? error : new Error(messageOf(error), { cause: error });
    for (const handler of this.#errorHandlers) {
      try {
        await handler(reported, context);
      } catch {
        // An error handler that throws must not turn a refusal into a crash of the adapter.
      }
    }
  }
}
