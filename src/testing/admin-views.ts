import type { FundingRecord, PersonRecord, SubscriptionRecord, UploadRecord } from './state/records.js';
import type { DeliveryAttempt, WebhookDelivery } from './webhooks/webhook-types.js';

// What the admin controls show: the records the fake holds, with times as ISO 8601 strings like the API's
// own (the records keep epoch milliseconds on the fake's clock for arithmetic).

const iso = (ms: number) => new Date(ms).toISOString();

/** An investor (person) as the admin controls show it; `createdAt` is ISO 8601 server time. */
export interface FakePerson extends Omit<PersonRecord, 'createdAt'> {
  createdAt: string;
}

/** A document on record for a subscription, as the admin controls show it. */
export interface FakeUpload extends Omit<UploadRecord, 'uploadedAt'> {
  uploadedAt: string;
}

/** A subscription as the admin controls show it; every time is ISO 8601 server time. */
export interface FakeSubscription
  extends Omit<SubscriptionRecord, 'seq' | 'createdAt' | 'form' | 'funding' | 'completedAt'> {
  createdAt: string;
  form?: FakeUpload;
  funding?: FakeUpload & Pick<FundingRecord, 'amount' | 'currency' | 'wireReference'>;
  completedAt?: string;
}

/** One delivery attempt as the admin controls show it (times ISO 8601). */
export interface FakeDeliveryAttempt extends Omit<DeliveryAttempt, 'at' | 'signedAt'> {
  at: string;
  signedAt?: string;
}

/** One event on its way to one endpoint, as the admin controls show it (times ISO 8601). */
export interface FakeDelivery extends Omit<WebhookDelivery, 'attempts' | 'nextAttemptAt'> {
  attempts: FakeDeliveryAttempt[];
  nextAttemptAt?: string;
}

export function personView(person: PersonRecord): FakePerson {
  return { ...structuredClone(person), createdAt: iso(person.createdAt) };
}

const uploadView = <U extends UploadRecord>(upload: U) => ({ ...upload, uploadedAt: iso(upload.uploadedAt) });

export function subscriptionView(record: SubscriptionRecord): FakeSubscription {
  const { seq: _seq, createdAt, completedAt, form, funding, ...rest } = structuredClone(record);
  return {
    ...rest,
    createdAt: iso(createdAt),
    ...(form === undefined ? {} : { form: uploadView(form) }),
    ...(funding === undefined ? {} : { funding: uploadView(funding) }),
    ...(completedAt === undefined ? {} : { completedAt: iso(completedAt) }),
  };
}

export function deliveryView(delivery: WebhookDelivery): FakeDelivery {
  const { attempts, nextAttemptAt, ...rest } = structuredClone(delivery);
  return {
    ...rest,
    attempts: attempts.map(({ at, signedAt, ...attempt }) => ({
      ...attempt,
      at: iso(at),
      ...(signedAt === undefined ? {} : { signedAt: iso(signedAt) }),
    })),
    ...(nextAttemptAt === undefined ? {} : { nextAttemptAt: iso(nextAttemptAt) }),
  };
}
