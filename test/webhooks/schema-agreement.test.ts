// The fake API builds event payloads from the shared zod schemas (src/schemas/events.ts); the verifier has
// its own dependency-free types and checks. These tests keep the two from drifting apart.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  type FundingReceiptUploadedEvent,
  KnownWebhookEvent,
  type SignedSubscriptionFormUploadedEvent,
  type SpvRequestCompletedEvent,
  type SpvRequestCreatedEvent,
  type SubscriptionCompletedEvent,
  WEBHOOK_EVENT_TYPES,
} from '../../src/schemas/events.js';
import type {
  FundingReceiptUploadedData,
  KnownWebhookEventType,
  SignedSubscriptionFormUploadedData,
  SpvRequestCompletedData,
  SpvRequestCreatedData,
  SubscriptionCompletedData,
} from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { completedEvent, delivery, NOW_MS, SECRET } from './fixtures.js';

const created = {
  ...completedEvent,
  type: 'spv_request.created',
  data: {
    ...completedEvent.data,
    status: 'pending-review',
    approvedAt: undefined,
    materialisedRefs: undefined,
  },
};
const upload = {
  subscriptionSlug: 'sub_1',
  spvSlug: 'spv_alpha',
  personId: 'per_1',
  uploadedAt: '2025-06-15T14:00:00Z',
};
const samples = [
  completedEvent,
  JSON.parse(JSON.stringify(created)),
  {
    type: 'signed_subscription_form.uploaded',
    timestamp: '2025-06-15T14:00:01Z',
    data: {
      ...upload,
      subscriptionFormUrl: 'https://files.example/forms/sub_1.pdf',
      partnerInvestorId: 'inv-1',
    },
  },
  {
    type: 'funding_receipt.uploaded',
    timestamp: '2025-06-15T14:00:02Z',
    data: {
      ...upload,
      fundingReceiptUrl: 'https://files.example/receipts/sub_1.pdf',
      amount: '25000.00',
      currency: 'EUR',
      wireReference: 'WIRE-42',
    },
  },
  {
    type: 'subscription.completed',
    timestamp: '2025-06-15T14:00:03Z',
    data: {
      subscriptionSlug: 'sub_1',
      spvSlug: 'spv_alpha',
      personId: 'per_1',
      status: 'completed',
      completedAt: '2025-06-15T14:00:03Z',
      partnerSubscriptionId: 'psub-1',
    },
  },
];

describe('webhook event types agree with the shared schemas the fake API emits from', () => {
  it('knows exactly the event types the schemas name', () => {
    expectTypeOf<KnownWebhookEventType>().toEqualTypeOf<(typeof WEBHOOK_EVENT_TYPES)[number]>();
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(5);
  });

  it('types every schema-valid payload as assignable to the verifier’s data types', () => {
    type Data<S extends z.ZodType> = z.infer<S> extends { data: infer D } ? D : never;
    type Assignable<A, B> = [A] extends [B] ? true : false;
    expectTypeOf<
      Assignable<Data<typeof SpvRequestCreatedEvent>, SpvRequestCreatedData>
    >().toEqualTypeOf<true>();
    // Approval always sets approvedAt and materialisedRefs, which the schema leaves optional on the resource.
    type Approved = Data<typeof SpvRequestCompletedEvent> &
      Pick<SpvRequestCompletedData, 'approvedAt' | 'materialisedRefs'>;
    expectTypeOf<Assignable<Approved, SpvRequestCompletedData>>().toEqualTypeOf<true>();
    expectTypeOf<
      Assignable<Data<typeof SignedSubscriptionFormUploadedEvent>, SignedSubscriptionFormUploadedData>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Assignable<Data<typeof FundingReceiptUploadedEvent>, FundingReceiptUploadedData>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Assignable<Data<typeof SubscriptionCompletedEvent>, SubscriptionCompletedData>
    >().toEqualTypeOf<true>();
    // And the check can fail: a payload without the SPV request's slug is not one.
    expectTypeOf<Assignable<{ status: string }, SpvRequestCreatedData>>().toEqualTypeOf<false>();
  });

  it.each(samples.map((event) => [event.type, event] as const))(
    'verifies a schema-valid %s',
    async (_type, event) => {
      expect(() => KnownWebhookEvent.parse(event)).not.toThrow();
      const { body, headers } = await delivery(event);
      const verified = await new Webhook({ secret: SECRET, now: () => NOW_MS }).verify(body, headers);
      expect(verified).toMatchObject({ known: true, type: event.type, data: event.data });
    },
  );
});
