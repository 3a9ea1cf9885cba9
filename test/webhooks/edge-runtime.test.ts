// @vitest-environment edge-runtime
// The default entry in a Web-standard runtime (the Vercel Edge runtime VM): Web Crypto, Request/Response,
// TextEncoder. Vitest lends the VM Node's Buffer (its Request polyfill needs it), so the signing and
// verifying tests hide it while they run: any use of Buffer by the SDK would fail them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFetchHandler,
  signWebhook,
  Webhook,
  WebhookReceiver,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';

const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
};
const NOW_MS = 1_750_000_000_000;
const event = {
  type: 'funding_receipt.uploaded',
  timestamp: '2025-06-15T14:40:00Z',
  data: {
    subscriptionSlug: 'sub_1',
    spvSlug: 'spv_alpha',
    personId: 'per_1',
    amount: '25000.00',
    currency: 'EUR',
    wireReference: 'WIRE-2025-0042',
    fundingReceiptUrl: 'https://files.example/receipts/sub_1.pdf',
    uploadedAt: '2025-06-15T14:39:59Z',
    partnerInvestorId: 'inv-42',
    note: '€ 🚀',
  },
};

const scope = globalThis as { Buffer?: unknown; EdgeRuntime?: unknown };

describe('default webhooks entry in the edge runtime, without Buffer', () => {
  let hiddenBuffer: unknown;
  beforeAll(() => {
    hiddenBuffer = scope.Buffer;
    scope.Buffer = undefined;
  });
  afterAll(() => {
    scope.Buffer = hiddenBuffer;
  });

  it('runs inside the Edge runtime VM', () => {
    expect(scope.EdgeRuntime).toBe('edge-runtime');
    expect(scope.Buffer).toBeUndefined();
  });

  it('signs the Standard Webhooks known answer', async () => {
    const headers = await signWebhook(VECTOR);
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verifies string and byte bodies and refuses tampering', async () => {
    const webhook = new Webhook({ secret: VECTOR.secret, now: () => NOW_MS });
    const payload = JSON.stringify(event);
    const headers = await webhook.sign({ payload, id: 'msg_edge' });
    const verified = await webhook.verify(payload, new Headers(headers));
    expect(verified).toMatchObject({
      known: true,
      webhookId: 'msg_edge',
      data: { partnerInvestorId: 'inv-42' },
    });
    const bytes = new TextEncoder().encode(payload);
    await expect(webhook.verify(bytes.buffer, headers)).resolves.toMatchObject({ data: { note: '€ 🚀' } });
    const error = await webhook.verify(payload.replace('25000', '95000'), headers).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ reason: 'no_matching_signature' });
  });
});

describe('default webhooks entry in the edge runtime, with its Request and Response', () => {
  it('serves a fetch handler that answers Request with Response', async () => {
    const received: string[] = [];
    const webhook = new Webhook({ secret: VECTOR.secret, now: () => NOW_MS });
    const receiver = new WebhookReceiver(webhook, { now: () => NOW_MS }).on(
      'funding_receipt.uploaded',
      (e) => {
        received.push(String(e.data.amount));
      },
    );
    const handler = createFetchHandler(receiver);
    const payload = JSON.stringify(event);
    const headers = await webhook.sign({ payload });
    const request = () =>
      new Request('https://partner.example/webhooks', { method: 'POST', headers, body: payload });
    expect((await handler(request())).status).toBe(204);
    expect((await handler(request())).status).toBe(204);
    const forged = new Request('https://partner.example/webhooks', {
      method: 'POST',
      headers,
      body: `${payload} `,
    });
    expect((await handler(forged)).status).toBe(400);
    expect(received).toEqual(['25000.00']);
  });
});
