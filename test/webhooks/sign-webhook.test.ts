import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhooks/sign.js';
import { WebhookVerificationError } from '../../src/webhooks/webhook-verification-error.js';

// The Standard Webhooks reference vector (standard-webhooks libraries' own test suite).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('signWebhook', () => {
  it('reproduces the Standard Webhooks known answer', async () => {
    const headers = await signWebhook(VECTOR);
    expect(headers).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': VECTOR.signature,
    });
  });

  it('signs the same bytes whether the payload is a string, Uint8Array or ArrayBuffer, or the secret bare base64 under the base64 encoding', async () => {
    const bytes = new TextEncoder().encode(VECTOR.payload);
    const fromBytes = await signWebhook({ ...VECTOR, payload: bytes });
    const fromBuffer = await signWebhook({ ...VECTOR, payload: bytes.buffer });
    const bareSecret = await signWebhook({
      ...VECTOR,
      secret: VECTOR.secret.slice('whsec_'.length),
      scheme: { preset: 'standard-webhooks', secretEncoding: 'base64' },
    });
    const fromDate = await signWebhook({ ...VECTOR, timestamp: new Date(VECTOR.timestamp * 1000 + 999) });
    for (const headers of [fromBytes, fromBuffer, bareSecret, fromDate]) {
      expect(headers['webhook-signature']).toBe(VECTOR.signature);
    }
  });

  it('refuses a bare base64 secret under the default whsec encoding, saying which encodings exist', async () => {
    const error = await signWebhook({ ...VECTOR, secret: VECTOR.secret.slice('whsec_'.length) }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      reason: 'malformed_secret',
      message: expect.stringMatching(/must start with "whsec_".*'raw'/),
    });
  });

  it('makes up an id and a timestamp when none is given', async () => {
    const before = Math.floor(Date.now() / 1000);
    const headers = await signWebhook({ secret: VECTOR.secret, payload: '{}' });
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Number(headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
  });

  it('refuses a malformed secret without echoing it', async () => {
    const error = await signWebhook({ ...VECTOR, secret: 'whsec_not base64!' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ reason: 'malformed_secret' });
    expect(String((error as Error).message)).not.toContain('not base64');
  });

  it('refuses millisecond, fractional and negative timestamps, bad ids and parsed payloads', async () => {
    await expect(signWebhook({ ...VECTOR, timestamp: 1614265330000 })).rejects.toThrow(/milliseconds/);
    await expect(signWebhook({ ...VECTOR, timestamp: 1614265330.5 })).rejects.toThrow(TypeError);
    await expect(signWebhook({ ...VECTOR, timestamp: -1 })).rejects.toThrow(TypeError);
    await expect(signWebhook({ ...VECTOR, id: 'has space' })).rejects.toThrow(TypeError);
    await expect(signWebhook({ ...VECTOR, id: '' })).rejects.toThrow(TypeError);
    // @ts-expect-error a parsed object is not a raw body
    await expect(signWebhook({ ...VECTOR, payload: { test: 1 } })).rejects.toThrow(/raw body/);
  });
});
