import { inspect } from 'node:util';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  type SpvRequestCompletedData,
  type WebhookEvent,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { BUILDS, completedEvent, delivery, NOW_MS, NOW_S, OTHER_SECRET, SECRET, VECTOR } from './fixtures.js';

describe.each(BUILDS)('Webhook#verify — %s', (_name, Webhook) => {
  const webhook = new Webhook({ secret: SECRET, now: () => NOW_MS });

  it('verifies the Standard Webhooks known answer', async () => {
    const atVector = new Webhook({ secret: VECTOR.secret, now: () => VECTOR.timestamp * 1000 });
    const headers = {
      'webhook-id': VECTOR.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': VECTOR.signature,
    };
    // The vector's payload is not an event envelope: the signature matches, then the body is refused as such.
    const error = await atVector.verify(VECTOR.payload, headers).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'malformed_payload' });
    const wrong = { ...headers, 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=' };
    await expect(atVector.verify(VECTOR.payload, wrong)).rejects.toMatchObject({
      reason: 'no_matching_signature',
    });
  });

  it('returns the typed event with webhook-id, the matching secret and unknown fields kept', async () => {
    const { body, headers } = await delivery({ ...completedEvent, extra: 'kept' }, { id: 'msg_abc' });
    const event = await webhook.verify(body, headers);
    expect(event).toEqual({
      ...completedEvent,
      extra: 'kept',
      known: true,
      webhookId: 'msg_abc',
      secretIndex: 0,
    });
    if (event.known && event.type === 'spv_request.completed') {
      expectTypeOf(event.data.materialisedRefs.vehicleSlug).toEqualTypeOf<string>();
      expectTypeOf(event.data.feesAndCarry).toEqualTypeOf<SpvRequestCompletedData['feesAndCarry']>();
      expect(event.data.futureField).toEqual({ nested: true });
    } else {
      expect.unreachable('narrowed to spv_request.completed');
    }
  });

  it('delivers an event type it does not know as an unknown event', async () => {
    const future = { type: 'spv.closed', timestamp: '2026-01-01T00:00:00Z', data: { spvSlug: 'spv_alpha' } };
    const { body, headers } = await delivery(future);
    const event = await webhook.verify(body, headers);
    expect(event).toMatchObject({ known: false, type: 'spv.closed', data: { spvSlug: 'spv_alpha' } });
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
  });

  it('accepts the body as string, Uint8Array, Buffer or ArrayBuffer, with multi-byte text', async () => {
    const event = {
      ...completedEvent,
      data: { ...completedEvent.data, note: 'Zoë 🚀 株式 \u{1F468}\u200D\u{1F469}' },
    };
    const { body, headers } = await delivery(event);
    const bytes = new TextEncoder().encode(body);
    for (const raw of [body, bytes, Buffer.from(body), bytes.slice().buffer]) {
      await expect(webhook.verify(raw, headers)).resolves.toMatchObject({ data: { note: event.data.note } });
    }
  });

  it('reads headers from Headers, Node IncomingHttpHeaders (arrays) and mixed-case records', async () => {
    const { body, headers } = await delivery();
    const mixedCase = {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
      'Webhook-Signature': headers['webhook-signature'],
    };
    const nodeStyle = {
      'webhook-id': [headers['webhook-id']!],
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': ['v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', headers['webhook-signature']!],
    };
    const fetchHeaders = new Headers(headers);
    fetchHeaders.append('webhook-signature', 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='); // joined with ", "
    for (const form of [new Headers(headers), mixedCase, nodeStyle, fetchHeaders]) {
      await expect(webhook.verify(body, form)).resolves.toMatchObject({ webhookId: 'msg_1' });
    }
  });

  it('tries every secret during rotation and reports which matched', async () => {
    const rotating = new Webhook({ secrets: [OTHER_SECRET, SECRET], now: () => NOW_MS });
    const { body, headers } = await delivery();
    await expect(rotating.verify(body, headers)).resolves.toMatchObject({ secretIndex: 1 });
    const fresh = await delivery(completedEvent, { secret: OTHER_SECRET });
    await expect(rotating.verify(fresh.body, fresh.headers)).resolves.toMatchObject({ secretIndex: 0 });
    const bothSigned = {
      ...headers,
      'webhook-signature': `${fresh.headers['webhook-signature']} ${headers['webhook-signature']}`,
    };
    await expect(webhook.verify(body, bothSigned)).resolves.toMatchObject({ secretIndex: 0 });
  });

  it('accepts the edges of the tolerance window on both sides and honours toleranceSeconds', async () => {
    for (const timestamp of [NOW_S - 300, NOW_S + 300]) {
      const { body, headers } = await delivery(completedEvent, { timestamp });
      await expect(webhook.verify(body, headers)).resolves.toMatchObject({ known: true });
    }
    const strict = new Webhook({ secret: SECRET, toleranceSeconds: 5, now: () => new Date(NOW_MS) });
    const late = await delivery(completedEvent, { timestamp: NOW_S - 6 });
    await expect(strict.verify(late.body, late.headers)).rejects.toMatchObject({
      reason: 'timestamp_too_old',
    });
  });

  it('refuses signed bodies that are not a valid envelope for their type', async () => {
    const cases: [unknown, RegExp][] = [
      ['not json', /UTF-8 JSON/],
      ['[1,2]', /JSON object/],
      [{ timestamp: 'x', data: {} }, /"type"/],
      [{ type: 'spv_request.created', data: {} }, /"timestamp"/],
      [{ type: 'spv_request.created', timestamp: 'x', data: 'str' }, /"data"/],
      [
        { type: 'spv_request.created', timestamp: 'x', data: { status: 'pending-review', templateId: 't' } },
        /spvRequestSlug/,
      ],
      [{ ...completedEvent, data: { ...completedEvent.data, materialisedRefs: 'x' } }, /materialisedRefs/],
      [
        { ...completedEvent, data: { ...completedEvent.data, materialisedRefs: { opportunitySlug: 'o' } } },
        /data\.materialisedRefs\.vehicleSlug of spv_request\.completed is not a string/,
      ],
      [
        { ...completedEvent, data: { ...completedEvent.data, feesAndCarry: {} } },
        /feesAndCarry\.shareClasses/,
      ],
      [{ ...completedEvent, data: { ...completedEvent.data, approvedAt: undefined } }, /data\.approvedAt/],
    ];
    for (const [event, message] of cases) {
      const { body, headers } = await delivery(event);
      const error = await webhook.verify(body, headers).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({ reason: 'malformed_payload', message: expect.stringMatching(message) });
    }
    const invalidUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    const signed = await webhook.sign({ payload: invalidUtf8 });
    await expect(webhook.verify(invalidUtf8, signed)).rejects.toMatchObject({ reason: 'malformed_payload' });
  });

  it('signs with sign() what verify() accepts', async () => {
    const payload = JSON.stringify(completedEvent);
    const headers = await webhook.sign({ payload });
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(headers['webhook-timestamp']).toBe(String(NOW_S));
    await expect(webhook.verify(payload, headers)).resolves.toMatchObject({
      webhookId: headers['webhook-id'],
    });
  });

  it('keeps secrets out of inspect, JSON and every error message', async () => {
    const { body, headers } = await delivery();
    const other = new Webhook({ secret: OTHER_SECRET, now: () => NOW_MS });
    const error = (await other.verify(body, headers).catch((e: unknown) => e)) as Error;
    const expected = (await delivery(completedEvent, { secret: OTHER_SECRET }))['headers'][
      'webhook-signature'
    ]!;
    const seen = [
      inspect(other, { showHidden: true, depth: 5 }),
      JSON.stringify(other),
      error.message,
      inspect(error),
    ];
    for (const text of seen) {
      expect(text).not.toContain(OTHER_SECRET.slice(6, 20));
      expect(text).not.toContain(expected.slice(3, 20));
    }
  });
});

describe('Webhook (web crypto build) key handling', () => {
  it('imports each secret once per Webhook, not per verify', async () => {
    const { Webhook } = await import('../../src/webhooks/index.js');
    const { body, headers } = await delivery(); // signs (and imports a key) before counting starts
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    try {
      const webhook = new Webhook({ secrets: [OTHER_SECRET, SECRET], now: () => NOW_MS });
      await Promise.all([webhook.verify(body, headers), webhook.verify(body, headers)]);
      await webhook.verify(body, headers);
      expect(importKey).toHaveBeenCalledTimes(2);
    } finally {
      importKey.mockRestore();
    }
  });

  it('uses Web Crypto in the default build and node:crypto in the node build', async () => {
    const { Webhook: WebWebhook } = await import('../../src/webhooks/index.js');
    const { Webhook: NodeWebhook } = await import('../../src/webhooks/index.node.js');
    const { body, headers } = await delivery();
    const subtleSign = vi.spyOn(crypto.subtle, 'sign');
    try {
      await new NodeWebhook({ secret: SECRET, now: () => NOW_MS }).verify(body, headers);
      class PartnerWebhook extends NodeWebhook {} // a partner's subclass keeps the node:crypto path
      await new PartnerWebhook({ secret: SECRET, now: () => NOW_MS }).verify(body, headers);
      expect(subtleSign).not.toHaveBeenCalled();
      await new WebWebhook({ secret: SECRET, now: () => NOW_MS }).verify(body, headers);
      expect(subtleSign).toHaveBeenCalledOnce();
    } finally {
      subtleSign.mockRestore();
    }
  });
});
