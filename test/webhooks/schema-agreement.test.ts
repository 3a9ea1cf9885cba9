// The tests' zod schemas (test/helpers/webhook-event-schemas.ts) and the verifier's dependency-free types
// (src/webhooks/events.ts) describe the same guessed payloads; these tests keep the two from drifting apart.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../src/schemas/events.js';
import type {
  FundingReceiptUploadedData,
  KnownWebhookEventType,
  SignedSubscriptionFormUploadedData,
  SpvRequestCompletedData,
  SpvRequestCreatedData,
  SubscriptionCompletedData,
} from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import {
  type FundingReceiptUploadedEvent,
  KnownWebhookEvent,
  type SignedSubscriptionFormUploadedEvent,
  type SpvRequestCompletedEvent,
  type SpvRequestCreatedEvent,
  type SubscriptionCompletedEvent,
} from '../helpers/webhook-event-schemas.js';
import { completedEvent, delivery, NOW_MS, SECRET } from './fixtures.js';

const created = {
  ...completedEvent,
  type: 'spv_request.created',
  data: { ...completedEvent.data, status: 'pending-review', approvedAt: null, materialisedRefs: undefined },
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

  it('types the same payloads as the verifier: every guessed field optional and nullable', () => {
    type Data<S extends z.ZodType> = z.infer<S> extends { data: infer D } ? D : never;
    type Assignable<A, B> = [A] extends [B] ? true : false;
    type Same<A, B> = [Assignable<A, B>, Assignable<B, A>];
    expectTypeOf<Same<Data<typeof SpvRequestCreatedEvent>, SpvRequestCreatedData>>().toEqualTypeOf<
      [true, true]
    >();
    expectTypeOf<Same<Data<typeof SpvRequestCompletedEvent>, SpvRequestCompletedData>>().toEqualTypeOf<
      [true, true]
    >();
    expectTypeOf<
      Same<Data<typeof SignedSubscriptionFormUploadedEvent>, SignedSubscriptionFormUploadedData>
    >().toEqualTypeOf<[true, true]>();
    expectTypeOf<Same<Data<typeof FundingReceiptUploadedEvent>, FundingReceiptUploadedData>>().toEqualTypeOf<
      [true, true]
    >();
    expectTypeOf<Same<Data<typeof SubscriptionCompletedEvent>, SubscriptionCompletedData>>().toEqualTypeOf<
      [true, true]
    >();
    // Nothing is required, but a guessed field of another type is not the type: the checks can fail.
    expectTypeOf<Assignable<Record<string, never>, SpvRequestCreatedData>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<{ status: number }, SpvRequestCreatedData>>().toEqualTypeOf<false>();
    expectTypeOf<
      Assignable<{ partnerInvestorId: null }, FundingReceiptUploadedData>
    >().toEqualTypeOf<false>();
  });

  it('accepts the minimal payloads the spec allows, in both the schemas and the verifier', async () => {
    const minimal = [
      { type: 'spv_request.completed', data: { spvRequestSlug: 'spvr_1', status: 'approved' } },
      {
        type: 'funding_receipt.uploaded',
        data: { subscriptionSlug: 'sub_1', spvSlug: null, personId: null },
      },
      { type: 'subscription.completed', timestamp: null, data: {} },
    ];
    for (const event of minimal) {
      expect(() => KnownWebhookEvent.parse(event)).not.toThrow();
      const { body, headers } = await delivery(event);
      const verified = await new Webhook({ secret: SECRET, now: () => NOW_MS }).verify(body, headers);
      expect(verified).toMatchObject({ known: true, type: event.type, data: event.data });
    }
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
