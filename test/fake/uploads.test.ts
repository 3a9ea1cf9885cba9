import { afterEach, describe, expect, it } from 'vitest';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import { FundingReceiptUploadResult, SignedFormUploadResult } from '../../src/testing/wire/index.js';
import { approvedSpv, files, http, login, startFake, uploadForm } from './helpers.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

const funding = { amount: '25000.00', currency: 'EUR', wireReference: 'WIRE-2025-0001' };

async function setup(options: Parameters<typeof startFake>[0] = {}) {
  const started = await startFake(options);
  fake = started.fake;
  const spv = await approvedSpv(fake, started.call, started.token, ['inv-1', 'inv-2']);
  const subscribe = (i: number) =>
    started.call('POST', `/v1/spvs/${spv.spvSlug}/subscriptions`, {
      token: started.token,
      json: {
        subscriptions: [
          {
            servicePersonId: spv.personIds[i],
            lumpSum: { currency: 'EUR', value: '25000.00' },
            shareClassSlug: 'class-a',
          },
        ],
      },
    });
  const upload = (
    kind: 'forms' | 'fundings',
    body: FormData,
    person = spv.personIds[0],
    slug = spv.spvSlug,
  ) =>
    started.call('POST', `/v1/spvs/${slug}/subscription/${person}/${kind}`, { token: started.token, body });
  return { ...started, spv, subscribe, upload };
}

describe('signed form and funding receipt uploads', () => {
  it('form then funding: 201 results, statuses advance, documents downloadable, events carry partnerInvestorId', async () => {
    const { spv, subscribe, upload, call } = await setup();
    const subscription = (await subscribe(0)).body.results[0];
    const form = await upload('forms', uploadForm(files.pdf, 'signed form.pdf'));
    expect(form.status).toBe(201);
    const formResult = SignedFormUploadResult.parse(form.body);
    expect(formResult).toMatchObject({
      subscriptionSlug: subscription.subscriptionSlug,
      spvSlug: spv.spvSlug,
      personId: spv.personIds[0],
    });
    const download = await call('GET', new URL(formResult.subscriptionFormUrl).pathname);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.text).toBe(Buffer.from(files.pdf).toString());
    const receipt = await upload('fundings', uploadForm(files.png, 'receipt.png', funding));
    expect(receipt.status).toBe(201);
    expect(FundingReceiptUploadResult.parse(receipt.body)).toMatchObject({
      ...funding,
      subscriptionSlug: subscription.subscriptionSlug,
    });
    expect(fake.admin.snapshot().subscriptions[0]!.status).toBe('funding-received');
    const events = fake.webhooks.events.filter((e) => e.type.endsWith('.uploaded'));
    expect(events.map((e) => [e.type, (e.data as { partnerInvestorId?: string }).partnerInvestorId])).toEqual(
      [
        ['signed_subscription_form.uploaded', 'inv-1'],
        ['funding_receipt.uploaded', 'inv-1'],
      ],
    );
  });

  it('409 for a funding receipt before the signed form is on record', async () => {
    const { subscribe, upload } = await setup();
    await subscribe(0);
    const early = await upload('fundings', uploadForm(files.pdf, 'receipt.pdf', funding));
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('signed_form_missing');
    expect(fake.admin.snapshot().subscriptions[0]!.status).toBe('awaiting-signed-form');
  });

  it.each(['completed', 'cancelled'] as const)(
    '409 for both uploads once the subscription is %s',
    async (end) => {
      const { subscribe, upload } = await setup();
      const { subscriptionSlug } = (await subscribe(0)).body.results[0];
      expect((await upload('forms', uploadForm(files.pdf, 'f.pdf'))).status).toBe(201);
      if (end === 'completed') fake.admin.completeSubscription(subscriptionSlug);
      else fake.admin.cancelSubscription(subscriptionSlug);
      for (const reply of [
        await upload('forms', uploadForm(files.pdf, 'f.pdf')),
        await upload('fundings', uploadForm(files.pdf, 'r.pdf', funding)),
      ]) {
        expect(reply.status).toBe(409);
        expect(reply.body.code).toBe('subscription_terminal');
      }
    },
  );

  it('accepts PDF, JPEG, PNG and WEBP by their bytes; 415 for anything else, whatever the declared type', async () => {
    const { subscribe, upload } = await setup();
    await subscribe(0);
    for (const bytes of [files.pdf, files.jpeg, files.png, files.webp]) {
      expect((await upload('forms', uploadForm(bytes, 'doc'))).status).toBe(201);
    }
    const disguised = new FormData();
    disguised.set('file', new Blob([files.text], { type: 'application/pdf' }), 'fake.pdf');
    const refused = await upload('forms', disguised);
    expect(refused.status).toBe(415);
    expect(refused.body.code).toBe('unsupported_media_type');
    expect((await upload('fundings', uploadForm(files.text, 'r.txt', funding))).status).toBe(415);
  });

  it('413 above 10 MiB (exactly 10 MiB is fine), streamed over the loopback socket', async () => {
    const { subscribe, upload } = await setup();
    await subscribe(0);
    const limit = 10 * 1024 * 1024;
    const exact = new Uint8Array(limit);
    exact.set(files.pdf);
    expect((await upload('forms', uploadForm(exact, 'big.pdf'))).status).toBe(201);
    const over = new Uint8Array(limit + 1);
    over.set(files.pdf);
    const refused = await upload('forms', uploadForm(over, 'too-big.pdf'));
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('file_too_large');
    const huge = new Uint8Array(limit * 2);
    expect((await upload('fundings', uploadForm(huge, 'huge.pdf', funding))).status).toBe(413);
  });

  it('400 for a non-multipart body or an empty file; 422 for a missing file or funding fields', async () => {
    const { subscribe, upload, call, token, spv } = await setup();
    await subscribe(0);
    const path = `/v1/spvs/${spv.spvSlug}/subscription/${spv.personIds[0]}/forms`;
    const json = await call('POST', path, { token, json: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('invalid_multipart');
    expect((await upload('forms', uploadForm(new Uint8Array(0), 'empty.pdf'))).body.code).toBe('empty_file');
    const noFile = new FormData();
    noFile.set('other', 'x');
    expect((await upload('forms', noFile)).body.detail).toEqual([
      { loc: ['body', 'file'], msg: 'Field required', type: 'missing' },
    ]);
    const textFile = new FormData();
    textFile.set('file', 'just a string');
    expect((await upload('forms', textFile)).status).toBe(422);
    const missing = await upload('fundings', uploadForm(files.pdf, 'r.pdf', { amount: '1' }));
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d: { loc: string[] }) => d.loc[1])).toEqual([
      'currency',
      'wireReference',
    ]);
    const invalid = await upload(
      'fundings',
      uploadForm(files.pdf, 'r.pdf', { ...funding, amount: 'lots', currency: 'eur' }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.validationErrors.map((e: { attribute: string }) => e.attribute)).toEqual([
      'amount',
      'currency',
    ]);
  });

  it('404 for an unknown SPV, person, or a person without a subscription there; other clients see 404', async () => {
    const { subscribe, upload, spv } = await setup();
    await subscribe(0);
    const form = () => uploadForm(files.pdf, 'f.pdf');
    expect((await upload('forms', form(), spv.personIds[0], 'spv_unknown')).body.code).toBe('spv_not_found');
    expect((await upload('forms', form(), 'per_unknown')).body.code).toBe('person_not_found');
    expect((await upload('fundings', uploadForm(files.pdf, 'r.pdf', funding), 'per_unknown')).status).toBe(
      404,
    );
    expect((await upload('forms', form(), spv.personIds[1])).body.code).toBe('subscription_not_found');
    const other = await fake.createPartner();
    const token = (await login(fake, other)).accessToken;
    const foreign = await http(other.baseUrl)(
      'POST',
      `/v1/spvs/${spv.spvSlug}/subscription/${spv.personIds[0]}/forms`,
      { token, body: form() },
    );
    expect(foreign.status).toBe(404);
  });

  it('events omit partnerInvestorId for a person onboarded outside the partner API (spec rule 1)', async () => {
    const { spv, upload, call, token, partner } = await setup();
    const { servicePersonId } = fake.admin.createPerson(partner.clientId, {
      email: 'a@b.example',
      firstName: 'A',
      lastName: 'B',
    });
    await call('POST', `/v1/spvs/${spv.spvSlug}/subscriptions`, {
      token,
      json: {
        subscriptions: [
          { servicePersonId, lumpSum: { currency: 'EUR', value: '100' }, shareClassSlug: 'class-a' },
        ],
      },
    });
    expect((await upload('forms', uploadForm(files.pdf, 'f.pdf'), servicePersonId)).status).toBe(201);
    expect((await upload('fundings', uploadForm(files.pdf, 'r.pdf', funding), servicePersonId)).status).toBe(
      201,
    );
    const uploaded = fake.webhooks.events.filter((e) => e.type.endsWith('.uploaded'));
    expect(uploaded).toHaveLength(2);
    for (const event of uploaded) expect(event.data).not.toHaveProperty('partnerInvestorId');
  });
});
