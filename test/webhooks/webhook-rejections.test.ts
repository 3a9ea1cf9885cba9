import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError, type WebhookVerificationReason } from '../../src/webhooks/index.js';
import { engineFor, useHmacEngine } from '../../src/webhooks/webhook-engines.js';
import { BUILDS, delivery, NOW_MS, NOW_S, OTHER_SECRET, SECRET } from './fixtures.js';

async function reasonOf(promise: Promise<unknown>): Promise<WebhookVerificationReason | 'accepted'> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
}

describe.each(BUILDS)('rejection matrix — %s', (_name, Webhook) => {
  const webhook = new Webhook({ secret: SECRET, now: () => NOW_MS });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
    'refuses a delivery without %s',
    async (name) => {
      const { body, headers } = await delivery();
      const { [name]: _dropped, ...rest } = headers;
      expect(await reasonOf(webhook.verify(body, rest))).toBe('missing_header');
      expect(await reasonOf(webhook.verify(body, { ...rest, [name]: '  ' }))).toBe('missing_header');
    },
  );

  it.each([
    ['trailing junk', `${NOW_S}abc`],
    ['milliseconds', String(NOW_MS)],
    ['negative', `-${NOW_S}`],
    ['explicit plus', `+${NOW_S}`],
    ['fraction', `${NOW_S}.0`],
    ['exponent', '1.75e9'],
    ['leading zero', `0${NOW_S}`],
    ['hex', '0x684b3a00'],
  ])('refuses a %s timestamp as malformed', async (_label, timestamp) => {
    // Correctly signed over the junk itself, so only the timestamp rule can refuse it.
    const { body, headers } = await delivery();
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`msg_1.${timestamp}.${body}`).digest('base64');
    const forged = { ...headers, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
    expect(await reasonOf(webhook.verify(body, forged))).toBe('malformed_timestamp');
  });

  it('refuses deliveries older or newer than the tolerance', async () => {
    const old = await delivery(undefined, { timestamp: NOW_S - 301 });
    expect(await reasonOf(webhook.verify(old.body, old.headers))).toBe('timestamp_too_old');
    const future = await delivery(undefined, { timestamp: NOW_S + 301 });
    expect(await reasonOf(webhook.verify(future.body, future.headers))).toBe('timestamp_too_new');
  });

  it('refuses a wrong secret and accepts a rotated one', async () => {
    const { body, headers } = await delivery(undefined, { secret: OTHER_SECRET });
    expect(await reasonOf(webhook.verify(body, headers))).toBe('no_matching_signature');
    const rotating = new Webhook({ secret: [SECRET, OTHER_SECRET], now: () => NOW_MS });
    await expect(rotating.verify(body, headers)).resolves.toMatchObject({ secretIndex: 1 });
  });

  it('refuses signatures that are not well-formed v1 entries', async () => {
    const { body, headers } = await delivery();
    const good = headers['webhook-signature']!;
    for (const signature of [
      `v2,${good.slice(3)}`,
      good.slice(3),
      'v1,',
      'v1,short=',
      `v1a,${good.slice(3)}`,
    ]) {
      expect(await reasonOf(webhook.verify(body, { ...headers, 'webhook-signature': signature }))).toBe(
        'malformed_signature',
      );
    }
    expect(await reasonOf(webhook.verify(body, { ...headers, 'webhook-signature': `${good}x` }))).toBe(
      'malformed_signature',
    );
  });

  it('refuses a 1,000-entry signature header before any HMAC work', async () => {
    const { body, headers } = await delivery();
    // HMACs counted rather than timed: a count does not change with how busy the machine is.
    const engine = engineFor(Webhook);
    let hmacs = 0;
    class Counted extends Webhook {}
    useHmacEngine(Counted, {
      ...engine,
      sign: (...args) => {
        hmacs += 1;
        return engine.sign(...args);
      },
    });
    const counted = new Counted({ secret: SECRET, now: () => NOW_MS }) as InstanceType<typeof Webhook>;
    await counted.verify(body, headers);
    expect(hmacs).toBe(1); // the count sees the engine (a blind one would pass anything)
    const flood = Array.from({ length: 999 }, (_, i) => `v1,${String(i).padStart(43, 'A')}=`);
    const header = [...flood, headers['webhook-signature']].join(' ');
    for (let i = 0; i < 200; i++) {
      expect(await reasonOf(counted.verify(body, { ...headers, 'webhook-signature': header }))).toBe(
        'malformed_signature',
      );
    }
    expect(hmacs).toBe(1);
    const seventeen = [...flood.slice(0, 16), headers['webhook-signature']].join(' ');
    expect(await reasonOf(webhook.verify(body, { ...headers, 'webhook-signature': seventeen }))).toBe(
      'malformed_signature',
    );
    const sixteen = [...flood.slice(0, 15), headers['webhook-signature']].join(' ');
    await expect(webhook.verify(body, { ...headers, 'webhook-signature': sixteen })).resolves.toBeDefined();
  });

  it('refuses a parsed object body with a hint about body-parsing middleware', async () => {
    const { body, headers } = await delivery();
    for (const parsed of [JSON.parse(body), null, undefined, 42]) {
      const error = (await webhook
        .verify(parsed, headers)
        .catch((e: unknown) => e)) as WebhookVerificationError;
      expect(error.reason).toBe('body_not_raw');
      expect(error.message).toMatch(/body-parsing middleware/);
      expect(error.message).toMatch(/express\.raw/);
    }
  });

  it('refuses webhook-id values that are not usable ids, and ids repeated with different values', async () => {
    const { body, headers } = await delivery();
    for (const id of ['has space', 'x'.repeat(257), 'caf\u00e9']) {
      expect(await reasonOf(webhook.verify(body, { ...headers, 'webhook-id': id }))).toBe('malformed_header');
    }
    const repeated = { ...headers, 'webhook-id': ['msg_1', 'msg_2'] };
    expect(await reasonOf(webhook.verify(body, repeated))).toBe('malformed_header');
  });

  it('refuses secrets shorter than the minimum of their encoding, naming which one, never echoing it', () => {
    const whsec = (bytes: number) => `whsec_${Buffer.alloc(bytes, 0x5a).toString('base64')}`;
    const build = (secret: string | string[], scheme?: 'github') => () =>
      new Webhook({ secret, ...(scheme ? { scheme } : {}) });
    expect(build(whsec(23))).toThrow(/^Webhook secret is 23 bytes of key; whsec secrets need at least 24/);
    expect(build(whsec(24))).not.toThrow();
    expect(build(whsec(1))).toThrow(/1 byte of key/); // issue 16: whsec_AAA= was accepted
    expect(build([whsec(32), whsec(8)])).toThrow(/^Webhook secret #2 is 8 bytes of key/);
    expect(build('r'.repeat(15), 'github')).toThrow(/15 bytes of key; raw secrets need at least 16/);
    expect(build('r'.repeat(16), 'github')).not.toThrow();
    expect(build('é'.repeat(8), 'github')).not.toThrow(); // 16 UTF-8 bytes
    try {
      build(whsec(10))();
    } catch (error) {
      expect(error).toMatchObject({ reason: 'malformed_secret' });
      expect((error as Error).message).not.toContain(whsec(10).slice(6));
    }
  });

  it('refuses malformed secrets when the Webhook is built, without echoing them', () => {
    const cases: unknown[] = ['whsec_', 'whsec_not*base64', 'whsec_abc def', undefined, [], ['whsec_???']];
    for (const secret of cases) {
      let error: unknown;
      try {
        new Webhook({ secret: secret as string });
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ reason: 'malformed_secret' });
      expect((error as Error).message).not.toMatch(/not\*base64|abc def|\?\?\?/);
    }
    expect(() => new Webhook({ secret: SECRET, toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => new Webhook({ secret: 'mysecret' })).toThrow(/must start with "whsec_"/);
    expect(() => new Webhook({ secret: SECRET, secrets: [SECRET] })).toThrow(TypeError);
  });
});
