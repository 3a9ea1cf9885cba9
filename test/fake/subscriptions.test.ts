import { afterEach, describe, expect, it } from 'vitest';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import { SubscriptionCreateResponse } from '../../src/testing/wire/index.js';
import { approvedSpv, http, idem, login, startFake } from './helpers.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

async function setup() {
  const started = await startFake();
  fake = started.fake;
  const spv = await approvedSpv(fake, started.call, started.token, ['inv-1', 'inv-2']);
  const post = (subscriptions: unknown[], headers: Record<string, string> = {}, slug = spv.spvSlug) =>
    started.call('POST', `/v1/spvs/${slug}/subscriptions`, {
      token: started.token,
      headers,
      json: { subscriptions },
    });
  const row = (i: number, overrides: Record<string, unknown> = {}) => ({
    servicePersonId: spv.personIds[i],
    lumpSum: { currency: 'EUR', value: '25000.00' },
    shareClassSlug: spv.shareClasses[0],
    partnerSubscriptionId: `sub-${i}`,
    ...overrides,
  });
  return { ...started, spv, post, row };
}

describe('POST /v1/spvs/{spv_slug}/subscriptions', () => {
  it('201 with one result per subscription, created awaiting the signed form', async () => {
    const { post, row, spv } = await setup();
    const reply = await post([
      row(0),
      row(1, { shareClassSlug: spv.shareClasses[1], partnerSubscriptionId: undefined }),
    ]);
    expect(reply.status).toBe(201);
    const { results } = SubscriptionCreateResponse.parse(reply.body);
    expect(results).toEqual([
      {
        subscriptionSlug: expect.stringMatching(/^sub_/),
        spvSlug: spv.spvSlug,
        personId: spv.personIds[0],
        status: 'awaiting-signed-form',
        lumpSum: { currency: 'EUR', value: '25000.00' },
        shareClassSlug: 'class-a',
        partnerSubscriptionId: 'sub-0',
      },
      expect.objectContaining({ personId: spv.personIds[1], shareClassSlug: 'class-b' }),
    ]);
    expect(results[1]).not.toHaveProperty('partnerSubscriptionId');
  });

  it('a repeated partnerSubscriptionId returns the existing subscription; a second open one for a person is a 400', async () => {
    const { post, row } = await setup();
    const first = (await post([row(0)])).body.results[0];
    const again = await post([row(0)]);
    expect(again.status).toBe(201);
    expect(again.body.results[0]).toEqual(first);
    const second = await post([row(0, { partnerSubscriptionId: 'sub-other' })]);
    expect(second.status).toBe(400);
    expect(second.body.validationErrors[0]).toMatchObject({
      attribute: 'subscriptions[0].servicePersonId',
      code: 'subscription_exists',
    });
    expect(fake.admin.snapshot().subscriptions).toHaveLength(1);
  });

  it('400 validation_failed lists every bad value and creates nothing', async () => {
    const { post, row } = await setup();
    const reply = await post([
      row(0, { shareClassSlug: 'class-z' }),
      row(1, { lumpSum: { currency: 'EUR', value: '-5' } }),
      row(0, { partnerSubscriptionId: 'sub-9', lumpSum: { currency: 'USD', value: '10' } }),
      {
        ...row(1, {
          servicePersonId: 'per_unknown',
          partnerSubscriptionId: 'sub-1',
          lumpSum: { currency: 'EUX', value: '0' },
        }),
      },
    ]);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('validation_failed');
    expect(
      reply.body.validationErrors.map((e: { attribute: string; code: string }) => `${e.attribute}:${e.code}`),
    ).toEqual([
      'subscriptions[0].shareClassSlug:unknown_share_class',
      'subscriptions[1].lumpSum.value:invalid_amount',
      'subscriptions[2].lumpSum.currency:currency_mismatch',
      'subscriptions[2].servicePersonId:duplicate_in_request',
      'subscriptions[3].lumpSum.value:invalid_amount',
      'subscriptions[3].lumpSum.currency:invalid_currency',
      'subscriptions[3].servicePersonId:unknown_person',
      'subscriptions[3].partnerSubscriptionId:duplicate_in_request',
    ]);
    expect(fake.admin.snapshot().subscriptions).toHaveLength(0);
  });

  it('404 for an unknown SPV or another client’s SPV; 422 for a bad slug', async () => {
    const { post, row, spv } = await setup();
    const unknown = await post([row(0)], {}, 'spv_unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('spv_not_found');
    expect((await post([row(0)], {}, 'bad%20slug')).status).toBe(422);
    const other = await fake.createPartner();
    const token = (await login(fake, other)).accessToken;
    const foreign = await http(other.baseUrl)('POST', `/v1/spvs/${spv.spvSlug}/subscriptions`, {
      token,
      json: { subscriptions: [row(0)] },
    });
    expect(foreign.status).toBe(404);
  });

  it('Idempotency-Key: replay and 409 on another body', async () => {
    const { post, row } = await setup();
    const headers = idem();
    const first = await post([row(0)], headers);
    const replay = await post([row(0)], headers);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await post([row(1)], headers)).status).toBe(409);
  });

  it('422 for a wrong shape (missing fields, wrong types, empty, over 500 rows); 401 without a token', async () => {
    const { post, row, call, spv } = await setup();
    const shape = await post([{ servicePersonId: 1, lumpSum: { currency: 'EUR' } }]);
    expect(shape.status).toBe(422);
    expect(
      shape.body.detail.map((d: { loc: string[]; type: string }) => `${d.loc.join('.')}:${d.type}`),
    ).toEqual([
      'body.subscriptions.0.servicePersonId:string_type',
      'body.subscriptions.0.lumpSum.value:missing',
      'body.subscriptions.0.shareClassSlug:missing',
    ]);
    expect((await post([])).status).toBe(422);
    expect((await post(Array.from({ length: 501 }, () => row(0)))).status).toBe(422);
    expect(
      (await call('POST', `/v1/spvs/${spv.spvSlug}/subscriptions`, { json: { subscriptions: [row(0)] } }))
        .status,
    ).toBe(401);
  });
});
