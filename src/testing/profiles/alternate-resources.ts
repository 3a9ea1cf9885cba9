import type { PARTNER_ERROR_CODES } from '../wire/errors.js';
import { ALTERNATE_ERROR_CODES } from '../wire-alternate/errors.js';
import { ALTERNATE_INVESTOR_ERROR_CODES, ALTERNATE_INVESTOR_STATUSES } from '../wire-alternate/investors.js';
import { ALTERNATE_SUBSCRIPTION_STATUSES } from '../wire-alternate/subscriptions.js';

// The alternate profile's presenters of resources: each takes the canonical (default-profile) wire JSON the
// routes build and returns what the alternate server sends.

type Json = Record<string, unknown>;

/** `2026-11-23T18:00:00.123Z` → `2026-11-23T18:00:00.123000+00:00` (an aware UTC `isoformat()`). */
export function offsetTimestamp(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const found = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?Z$/.exec(value);
  if (found === null) return value;
  return `${found[1]}.${(found[2] ?? '').padEnd(6, '0')}+00:00`;
}

const orNull = (value: unknown) => (value === undefined ? null : value);
const timestampOrNull = (value: unknown) => (value === undefined ? null : offsetTimestamp(value));

function setupFee(fee: unknown): Json {
  const { amount, currency } = (fee ?? {}) as { amount?: string; currency?: string };
  return { value: amount, currencyCode: currency };
}

/** Every field of the spec's table always sent; `null` where there is no value; `setupFee` reshaped. */
export function spvRequest(body: Json): Json {
  const fees = body['feesAndCarry'] as { shareClasses: Json[] } | undefined;
  return {
    spvRequestSlug: body['spvRequestSlug'],
    status: body['status'],
    templateId: body['templateId'],
    templateVersion: body['templateVersion'],
    tenantSlug: body['tenantSlug'],
    clientId: body['clientId'],
    attributes: body['attributes'],
    createdAt: offsetTimestamp(body['createdAt']),
    updatedAt: offsetTimestamp(body['updatedAt']),
    rejectionReason: orNull(body['rejectionReason']),
    cancelledAt: timestampOrNull(body['cancelledAt']),
    approvedAt: timestampOrNull(body['approvedAt']),
    materialisedRefs: orNull(body['materialisedRefs']),
    feesAndCarry:
      fees === undefined
        ? null
        : { shareClasses: fees.shareClasses.map((c) => ({ ...c, setupFee: setupFee(c['setupFee']) })) },
  };
}

/** A list entry: a summary of four fields. */
export function spvRequestSummary(body: Json): Json {
  return {
    spvRequestSlug: body['spvRequestSlug'],
    status: body['status'],
    templateId: body['templateId'],
    createdAt: offsetTimestamp(body['createdAt']),
  };
}

const INVESTOR_STATUS: Record<string, string> = ALTERNATE_INVESTOR_STATUSES;
const INVESTOR_CODE: Record<string, string> = ALTERNATE_INVESTOR_ERROR_CODES;

/** A row with both `servicePersonId` and `error`, one `null`; its own statuses and codes; row-wide errors' `field` null. */
export function investorResult(body: Json): Json {
  const error = body['error'] as
    | { code: string; message: string; retryable: boolean; field?: string }
    | undefined;
  return {
    partnerInvestorId: body['partnerInvestorId'],
    status: INVESTOR_STATUS[String(body['status'])] ?? body['status'],
    servicePersonId: orNull(body['servicePersonId']),
    error:
      error === undefined
        ? null
        : {
            code: INVESTOR_CODE[error.code] ?? error.code,
            message: error.message,
            retryable: error.retryable,
            field: error.code === 'temporarily_unavailable' ? null : orNull(error.field),
          },
  };
}

const SUBSCRIPTION_STATUS: Record<string, string> = ALTERNATE_SUBSCRIPTION_STATUSES;

/** Statuses in the admin interface's words, `lumpSum` as `{ amount, currencyCode }`, `null` for no partner id. */
export function subscriptionResult(body: Json): Json {
  const lumpSum = body['lumpSum'] as { currency: string; value: string };
  return {
    subscriptionSlug: body['subscriptionSlug'],
    spvSlug: body['spvSlug'],
    personId: body['personId'],
    status: SUBSCRIPTION_STATUS[String(body['status'])] ?? body['status'],
    lumpSum: { amount: lumpSum.value, currencyCode: lumpSum.currency },
    shareClassSlug: body['shareClassSlug'],
    partnerSubscriptionId: orNull(body['partnerSubscriptionId']),
  };
}

const relative = (url: unknown) => (typeof url === 'string' ? new URL(url).pathname : url);

/** Upload results: document URLs relative to the base URL, offset timestamps. */
export function uploadResult(urlField: 'subscriptionFormUrl' | 'fundingReceiptUrl') {
  return (body: Json): Json => ({
    ...body,
    [urlField]: relative(body[urlField]),
    uploadedAt: offsetTimestamp(body['uploadedAt']),
  });
}

/** The alternate `code` of a default partner error code (unknown ones kept). */
export function partnerCode(code: unknown): unknown {
  return ALTERNATE_ERROR_CODES[code as (typeof PARTNER_ERROR_CODES)[number]] ?? code;
}
