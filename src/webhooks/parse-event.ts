import type { KnownWebhookEventType, WebhookEvent } from './events.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** `string`: a string is required; `string?`: a string when present; likewise objects and arrays. */
type Rule = 'string' | 'string?' | 'object' | 'object?' | 'array';
type Shape = Readonly<Record<string, Rule | { optional: boolean; shape: Shape }>>;

const SPV_REQUEST: Shape = {
  spvRequestSlug: 'string',
  status: 'string',
  templateId: 'string',
  templateVersion: 'string',
  tenantSlug: 'string',
  clientId: 'string',
  attributes: 'object',
  createdAt: 'string',
  updatedAt: 'string',
  rejectionReason: 'string?',
  cancelledAt: 'string?',
  approvedAt: 'string?',
  feesAndCarry: { optional: true, shape: { shareClasses: 'array' } },
};
const REFS: Shape = { opportunitySlug: 'string', vehicleSlug: 'string', spSlug: 'string', spcSlug: 'string' };
const PARTNER_IDS: Shape = { partnerInvestorId: 'string?', partnerSubscriptionId: 'string?' };
const UPLOAD: Shape = {
  subscriptionSlug: 'string',
  spvSlug: 'string',
  personId: 'string',
  uploadedAt: 'string',
};

// Runtime twin of events.ts: a verified event of a known type really has the fields its type promises.
const SHAPES: Readonly<Record<KnownWebhookEventType, Shape>> = {
  'spv_request.created': { ...SPV_REQUEST, materialisedRefs: { optional: true, shape: REFS } },
  'spv_request.completed': {
    ...SPV_REQUEST,
    approvedAt: 'string',
    materialisedRefs: { optional: false, shape: REFS },
  },
  'signed_subscription_form.uploaded': { ...UPLOAD, subscriptionFormUrl: 'string', ...PARTNER_IDS },
  'funding_receipt.uploaded': {
    ...UPLOAD,
    fundingReceiptUrl: 'string',
    amount: 'string',
    currency: 'string',
    wireReference: 'string',
    ...PARTNER_IDS,
  },
  'subscription.completed': {
    subscriptionSlug: 'string',
    spvSlug: 'string',
    personId: 'string',
    status: 'string',
    completedAt: 'string',
    ...PARTNER_IDS,
  },
};

const decoder = new TextDecoder('utf-8', { fatal: true });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_payload', `Webhook body is signed but ${detail}.`);
}

function check(shape: Shape, value: Record<string, unknown>, path: string, type: string): void {
  for (const field in shape) {
    const rule = shape[field]!;
    const actual = value[field];
    const where = `${path}.${field}`;
    if (typeof rule === 'object') {
      if (actual === undefined && rule.optional) continue;
      if (!isPlainObject(actual)) throw malformed(`${where} of ${type} is not an object`);
      check(rule.shape, actual, where, type);
    } else if (rule === 'array') {
      if (!Array.isArray(actual)) throw malformed(`${where} of ${type} is not an array`);
    } else if (actual !== undefined || !rule.endsWith('?')) {
      const ok = rule.startsWith('string') ? typeof actual === 'string' : isPlainObject(actual);
      if (!ok)
        throw malformed(`${where} of ${type} is not ${rule.startsWith('string') ? 'a string' : 'an object'}`);
    }
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
  if (known) check(SHAPES[type as KnownWebhookEventType], data, 'data', type);
  // The parsed object is ours alone, so it is completed in place rather than copied.
  envelope['known'] = known;
  envelope['webhookId'] = webhookId;
  envelope['secretIndex'] = secretIndex;
  return envelope as WebhookEvent;
}
