import type { KnownWebhookEventType, WebhookEvent } from './events.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

interface DataShape {
  /** Fields that must be non-empty strings. */
  required: readonly string[];
  /** Fields that, when present, must be strings. */
  optional: readonly string[];
  /** Fields that, when present, must be plain objects. */
  objects?: readonly string[];
}

// Runtime twin of events.ts: a verified event of a known type really has the fields its type promises.
const SHAPES: Readonly<Record<KnownWebhookEventType, DataShape>> = {
  'spv_request.created': {
    required: ['spvRequestSlug', 'status', 'templateId'],
    optional: ['templateVersion', 'clientId', 'createdAt'],
  },
  'spv_request.completed': {
    required: ['spvRequestSlug', 'status', 'spvSlug'],
    optional: ['templateId', 'approvedAt'],
    objects: ['materialisedRefs'],
  },
  'signed_subscription_form.uploaded': {
    required: ['subscriptionSlug', 'spvSlug', 'personId', 'uploadedAt'],
    optional: ['subscriptionFormUrl', 'partnerInvestorId', 'partnerSubscriptionId'],
  },
  'funding_receipt.uploaded': {
    required: ['subscriptionSlug', 'spvSlug', 'personId', 'amount', 'currency', 'uploadedAt'],
    optional: ['wireReference', 'fundingReceiptUrl', 'partnerInvestorId', 'partnerSubscriptionId'],
  },
  'subscription.completed': {
    required: ['subscriptionSlug', 'spvSlug', 'personId', 'status'],
    optional: ['completedAt', 'partnerSubscriptionId'],
  },
};

const decoder = new TextDecoder('utf-8', { fatal: true });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_payload', `Webhook body is signed but ${detail}.`);
}

function checkData(type: KnownWebhookEventType, data: Record<string, unknown>): void {
  const shape = SHAPES[type];
  for (const field of shape.required) {
    const value = data[field];
    if (typeof value !== 'string' || value === '')
      throw malformed(`data.${field} of ${type} is not a string`);
  }
  for (const field of shape.optional) {
    const value = data[field];
    if (value !== undefined && typeof value !== 'string') {
      throw malformed(`data.${field} of ${type} is not a string`);
    }
  }
  for (const field of shape.objects ?? []) {
    const value = data[field];
    if (value !== undefined && !isPlainObject(value))
      throw malformed(`data.${field} of ${type} is not an object`);
  }
}

/**
 * Parses a verified body as the `{ type, timestamp, data }` envelope and adds what verification learned.
 * Unknown envelope and data fields are kept; a type this SDK does not know becomes an unknown event.
 */
export function parseEvent(body: string | Uint8Array, webhookId: string, secretIndex: number): WebhookEvent {
  let envelope: unknown;
  try {
    envelope = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {
    throw malformed('is not UTF-8 JSON');
  }
  if (!isPlainObject(envelope)) throw malformed('is not a JSON object');
  const { type, timestamp, data } = envelope;
  if (typeof type !== 'string' || type === '') throw malformed('has no string "type"');
  if (typeof timestamp !== 'string') throw malformed('has no string "timestamp"');
  if (!isPlainObject(data)) throw malformed('has no object "data"');
  const known = Object.hasOwn(SHAPES, type);
  if (known) checkData(type as KnownWebhookEventType, data);
  // The parsed object is ours alone, so it is completed in place rather than copied.
  envelope['known'] = known;
  envelope['webhookId'] = webhookId;
  envelope['secretIndex'] = secretIndex;
  return envelope as WebhookEvent;
}
