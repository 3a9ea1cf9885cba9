import { inspect } from 'node:util';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { SpvRequestCompletedData, WebhookEvent } from '../../src/webhooks/index.js';
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
    // The vector's payload is not an event envelope: verified all the same, and delivered as unrecognised.
    await expect(atVector.verify(VECTOR.payload, headers)).resolves.toEqual({
      known: false,
      recognised: false,
      type: undefined,
      data: undefined,
      webhookId: VECTOR.id,
      secretIndex: 0,
      text: VECTOR.payload,
      json: { test: 2432232314 },
      problem: 'the body has no string "type"',
    });
    const raw = await atVector.verifySignature(VECTOR.payload, headers);
    expect(raw).toMatchObject({ webhookId: VECTOR.id, timestamp: VECTOR.timestamp, secretIndex: 0 });
    expect(raw.body).toEqual(new TextEncoder().encode(VECTOR.payload));
    expect(raw.json).toEqual({ test: 2432232314 });
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
      recognised: true,
      webhookId: 'msg_abc',
      secretIndex: 0,
    });
    if (event.known && event.type === 'spv_request.completed') {
      // The spec promises no payload field: each guessed one may be absent or null.
      expectTypeOf(event.data.materialisedRefs?.vehicleSlug).toEqualTypeOf<string | null | undefined>();
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

  it('delivers every verified body, whatever it says, and says how it read it', async () => {
    const cases: [unknown, Record<string, unknown>][] = [
      ['not json', { recognised: false, text: 'not json', json: undefined, problem: 'the body is not JSON' }],
      ['[1,2]', { recognised: false, json: [1, 2], problem: 'the body is JSON but not an object' }],
      [
        { timestamp: 'x', data: {} },
        { recognised: false, problem: 'the body has no string "type"' },
      ],
      [
        { event: 'spv_request.completed', payload: {} },
        { recognised: false, json: { event: 'spv_request.completed', payload: {} } },
      ],
      [
        { type: 'spv_request.created', data: 'str' },
        { recognised: false, problem: `the body's "data" is not an object` },
      ],
      [{ type: 'spv_request.created' }, { recognised: false, problem: `the body's "data" is missing` }],
      // Known types with less than the guessed fields, or other types in them, arrive typed and as sent.
      [
        { type: 'spv_request.created', data: { status: 'pending-review' } },
        { known: true, data: { status: 'pending-review' } },
      ],
      [
        { type: 'spv_request.completed', data: { materialisedRefs: 'x', approvedAt: null } },
        { known: true, data: { materialisedRefs: 'x', approvedAt: null } },
      ],
    ];
    for (const [event, expected] of cases) {
      const { body, headers } = await delivery(event);
      await expect(webhook.verify(body, headers)).resolves.toMatchObject({ webhookId: 'msg_1', ...expected });
    }
    const invalidUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    const signed = await webhook.sign({ payload: invalidUtf8 });
    await expect(webhook.verify(invalidUtf8, signed)).resolves.toMatchObject({
      recognised: false,
      text: undefined,
      json: undefined,
      problem: 'the body is not UTF-8 text',
    });
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
