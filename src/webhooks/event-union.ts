import type {
  KnownWebhookEventType,
  WebhookDeliveryFields,
  WebhookEventDataMap,
  WebhookEventFields,
} from './events.js';

/** A verified event of a type this SDK knows; check `known` before switching on `type` to narrow `data`. */
export type KnownWebhookEvent<T extends KnownWebhookEventType = KnownWebhookEventType> = {
  [K in T]: WebhookEventFields & { known: true; recognised: true; type: K; data: WebhookEventDataMap[K] };
}[T];

/**
 * A verified event in the envelope whose `type` this SDK version does not know yet (the service added one).
 * It is delivered — to `onAny` handlers and to `on(type)` for that exact string — never dropped.
 */
export type UnknownWebhookEvent = WebhookEventFields & {
  known: false;
  recognised: true;
  type: string;
  data: Record<string, unknown>;
};

/**
 * A verified delivery whose body is not the `{ type, timestamp, data }` envelope: another envelope, JSON
 * that is not an object, text that is not JSON. Delivered to `onAny` with the body as text and as parsed
 * JSON (when it parses), so nothing the service signed is lost.
 */
export interface UnrecognisedWebhookEvent extends WebhookDeliveryFields {
  known: false;
  recognised: false;
  type: undefined;
  data: undefined;
  /** The body as UTF-8 text; `undefined` when it is not valid UTF-8. */
  text: string | undefined;
  /** The body parsed as JSON; `undefined` when it is not JSON. */
  json: unknown;
  /** Why it is not the envelope, e.g. `the body is not JSON`. */
  problem: string;
}

/** A verified event in the envelope: known or unknown type. What `on(type)` handlers receive. */
export type RecognisedWebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

/**
 * What `Webhook#verify` returns: every verified delivery, whatever its body.
 *
 * @example
 * ```ts
 * const event = await webhook.verify(rawBody, headers);
 * if (event.known && event.type === 'spv_request.completed') console.log(event.data.spvRequestSlug);
 * else if (!event.recognised) console.warn('unexpected body', event.problem, event.json ?? event.text);
 * ```
 */
export type WebhookEvent = RecognisedWebhookEvent | UnrecognisedWebhookEvent;

/** The event `on(type, …)` hands over for `type`. */
export type WebhookEventOf<T extends string> = T extends KnownWebhookEventType
  ? KnownWebhookEvent<T>
  : RecognisedWebhookEvent;
