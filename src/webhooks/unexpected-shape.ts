import { isRecord } from '../core/is-record.js';
import type { WebhookEvent } from './event-union.js';
import type { KnownWebhookEventType } from './events.js';

// The guessed JSON type of each field this SDK's event types name (events.ts): `s` string, `o` object,
// `a` array, a nested record for an object whose own fields are guessed. Absent and null are always fine,
// except for the spec's own `partnerInvestorId` on uploads (a string, or omitted).
type Guess = 's' | 'o' | 'a' | 'S' | { readonly [field: string]: Guess };
const STRING_FIELDS = (...names: string[]) => Object.fromEntries(names.map((n) => [n, 's' as const]));
const SPV_REQUEST = {
  ...STRING_FIELDS('spvRequestSlug', 'status', 'templateId', 'templateVersion', 'tenantSlug', 'clientId'),
  ...STRING_FIELDS('createdAt', 'updatedAt', 'rejectionReason', 'cancelledAt', 'approvedAt'),
  attributes: 'o',
  materialisedRefs: STRING_FIELDS('opportunitySlug', 'vehicleSlug', 'spSlug', 'spcSlug'),
  feesAndCarry: { shareClasses: 'a' },
} as const;
const UPLOAD = {
  ...STRING_FIELDS('subscriptionSlug', 'spvSlug', 'personId', 'uploadedAt', 'partnerSubscriptionId'),
  partnerInvestorId: 'S',
} as const;
const GUESSES: Readonly<Record<KnownWebhookEventType, Guess>> = {
  'spv_request.created': SPV_REQUEST,
  'spv_request.completed': SPV_REQUEST,
  'signed_subscription_form.uploaded': { ...UPLOAD, subscriptionFormUrl: 's' },
  'funding_receipt.uploaded': {
    ...UPLOAD,
    ...STRING_FIELDS('fundingReceiptUrl', 'amount', 'currency', 'wireReference'),
  },
  'subscription.completed': STRING_FIELDS(
    'subscriptionSlug',
    'spvSlug',
    'personId',
    'status',
    'completedAt',
    'partnerInvestorId',
    'partnerSubscriptionId',
  ),
};

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function mismatches(guess: Guess, value: unknown, path: string, out: string[]): void {
  if (value === undefined || (value === null && guess !== 'S')) return;
  const isObject = isRecord(value);
  if (typeof guess === 'object') {
    if (!isObject) out.push(`${path} is ${jsonType(value)}, not an object`);
    else
      for (const field in guess)
        mismatches(guess[field]!, (value as Record<string, unknown>)[field], `${path}.${field}`, out);
  } else if (guess === 'o' ? !isObject : guess === 'a' ? !Array.isArray(value) : typeof value !== 'string') {
    const expected = guess === 'o' ? 'an object' : guess === 'a' ? 'an array' : 'a string';
    out.push(`${path} is ${jsonType(value)}, not ${expected}`);
  }
}

/**
 * A shape this SDK did not expect, once worth a log line: `key` says what counts as "the same" one,
 * `message` what is unexpected, `delivery` how handlers receive such an event (said only when they ran).
 */
export interface UnexpectedShape {
  key: string;
  message: string;
  delivery: string;
}

/**
 * What is unexpected about a verified event's shape, or `undefined`: a body outside the envelope, a type this
 * SDK does not know, or guessed fields that arrived with another JSON type. Missing fields are expected (the
 * spec promises none).
 */
export function unexpectedShape(event: WebhookEvent): UnexpectedShape | undefined {
  if (!event.recognised) {
    return {
      key: `unrecognised:${event.problem}`,
      message: `Verified webhook ${event.webhookId} is not a { type, timestamp, data } envelope (${event.problem})`,
      delivery: 'delivered to onAny handlers as an unrecognised event with its text and JSON',
    };
  }
  const type = event.type.length > 100 ? `${event.type.slice(0, 100)}…` : event.type;
  if (!event.known) {
    return {
      key: `type:${event.type}`,
      message: `Verified webhook ${event.webhookId} has event type "${type}", unknown to this SDK version`,
      delivery: `delivered to on("${type}") and onAny handlers as an unknown event`,
    };
  }
  const found: string[] = [];
  mismatches(GUESSES[event.type], event.data, 'data', found);
  if (found.length === 0) return undefined;
  return {
    key: `fields:${event.type}:${found.join(',')}`,
    message: `Verified ${type} webhook ${event.webhookId} has fields of unexpected types (${found.join('; ')})`,
    delivery:
      'delivered as sent, so handlers see these values as they are, not as their TypeScript types say',
  };
}
