import { isRecord } from '../core/is-record.js';
import type { UnrecognisedWebhookEvent, WebhookEvent } from './event-union.js';
import type { KnownWebhookEventType } from './events.js';
import type { VerifiedWebhook } from './verified-webhook.js';

const KNOWN: ReadonlySet<string> = new Set<KnownWebhookEventType>([
  'spv_request.created',
  'spv_request.completed',
  'signed_subscription_form.uploaded',
  'funding_receipt.uploaded',
  'subscription.completed',
]);

/** Whether `type` is one of the event types this SDK version knows. */
export function isKnownEventType(type: string): type is KnownWebhookEventType {
  return KNOWN.has(type);
}

/**
 * Interprets a verified delivery, never refusing it: the `{ type, timestamp, data }` envelope becomes a
 * known or unknown event (the fields it has, unknown ones kept, nothing checked against the guessed types);
 * anything else becomes an {@link UnrecognisedWebhookEvent} carrying the text and parsed JSON.
 *
 * @example
 * ```ts
 * const delivery = await webhook.verifySignature(rawBody, headers);
 * await queue.push(delivery.toJSON());           // store first…
 * const event = parseWebhookEvent(delivery);      // …interpret later, as often as you like
 * ```
 */
export function parseWebhookEvent(verified: VerifiedWebhook): WebhookEvent {
  const json = verified.json;
  // A fresh object each time: the caller's VerifiedWebhook keeps its own parsed JSON untouched.
  return interpret(
    isRecord(json) ? { ...json } : json,
    () => verified.text,
    verified.webhookId,
    verified.secretIndex,
  );
}

/**
 * The event for a parsed body (`undefined`: not JSON). A plain object is completed in place, so pass one
 * that nobody else holds.
 */
export function interpret(
  json: unknown,
  text: () => string | undefined,
  webhookId: string,
  secretIndex: number,
): WebhookEvent {
  let problem: string;
  if (!isRecord(json)) {
    problem = json === undefined ? 'the body is not JSON' : 'the body is JSON but not an object';
  } else if (typeof json['type'] !== 'string' || json['type'] === '') {
    problem = 'the body has no string "type"';
  } else if (!isRecord(json['data'])) {
    problem = `the body's "data" is ${json['data'] === undefined ? 'missing' : 'not an object'}`;
  } else {
    json['known'] = KNOWN.has(json['type']);
    json['recognised'] = true;
    json['webhookId'] = webhookId;
    json['secretIndex'] = secretIndex;
    return json as WebhookEvent;
  }
  const body = text();
  const event: UnrecognisedWebhookEvent = {
    known: false,
    recognised: false,
    type: undefined,
    data: undefined,
    webhookId,
    secretIndex,
    text: body,
    json,
    problem: body === undefined ? 'the body is not UTF-8 text' : problem,
  };
  return event;
}
