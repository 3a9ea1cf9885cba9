import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvedSpv, files, idem, investor, spvBody, startReceiver, uploadForm } from './helpers.js';
import { choice, type Started, startBoth } from './profiles.js';

// Each spec-gap choice of the alternate profile, on the wire, beside the default profile's answer.

let both: Awaited<ReturnType<typeof startBoth>>;
beforeEach(async () => {
  both = await startBoth();
});
afterEach(() => both.close());

const createSpv = (s: Started, body: unknown = spvBody(), key = idem()) =>
  s.call('POST', '/v1/spv-requests', { token: s.token, headers: key, json: body });

async function subscribed(s: Started, partnerSubscriptionId?: string) {
  const spv = await approvedSpv(s.fake, s.call, s.token);
  const reply = await s.call('POST', `/v1/spvs/${spv.spvSlug}/subscriptions`, {
    token: s.token,
    json: {
      subscriptions: [
        {
          servicePersonId: spv.personIds[0],
          lumpSum: { currency: 'EUR', value: '25000.50' },
          shareClassSlug: spv.shareClasses[0],
          ...(partnerSubscriptionId === undefined ? {} : { partnerSubscriptionId }),
        },
      ],
    },
  });
  return { ...spv, reply, base: `/v1/spvs/${spv.spvSlug}/subscription/${spv.personIds[0]}` };
}

const receipt = (bytes: Uint8Array, name: string) =>
  uploadForm(bytes, name, { amount: '25000.50', currency: 'EUR', wireReference: 'W-1' });

describe('alternate profile: SPV requests', () => {
  it(choice('absent-fields-null'), async () => {
    for (const s of [both.def, both.alt]) {
      const created = await createSpv(s);
      const investors = await s.call('POST', '/v1/investors', {
        token: s.token,
        json: { investors: [investor('inv-1'), investor('inv-2', { email: 'bad' })] },
      });
      const { reply } = await subscribed(s);
      const absent = ['rejectionReason', 'cancelledAt', 'approvedAt', 'materialisedRefs', 'feesAndCarry'];
      const [good, bad] = investors.body.results;
      const seen = {
        spv: absent.map((f) => [f, created.body[f]]),
        spvHas: absent.map((f) => f in created.body),
        good: ['error' in good, good.error],
        bad: ['servicePersonId' in bad, bad.servicePersonId],
        sub: ['partnerSubscriptionId' in reply.body.results[0], reply.body.results[0].partnerSubscriptionId],
      };
      if (s === both.def) {
        expect(seen).toEqual({
          spv: absent.map((f) => [f, undefined]),
          spvHas: absent.map(() => false),
          good: [false, undefined],
          bad: [false, undefined],
          sub: [false, undefined],
        });
      } else {
        expect(seen).toEqual({
          spv: absent.map((f) => [f, null]),
          spvHas: absent.map(() => true),
          good: [true, null],
          bad: [true, null],
          sub: [true, null],
        });
      }
    }
  });

  it(choice('timestamps'), async () => {
    const stamps: string[][] = [];
    for (const s of [both.def, both.alt]) {
      await s.fake.clock.advance(1000);
      const created = await createSpv(s);
      const cancelled = await s.call('DELETE', `/v1/spv-requests/${created.body.spvRequestSlug}`, {
        token: s.token,
      });
      const listed = await s.call('GET', '/v1/spv-requests', { token: s.token });
      const { base } = await subscribed(s);
      const form = await s.call('POST', `${base}/forms`, {
        token: s.token,
        body: uploadForm(files.pdf, 'f.pdf'),
      });
      const paid = await s.call('POST', `${base}/fundings`, {
        token: s.token,
        body: receipt(files.pdf, 'r.pdf'),
      });
      stamps.push([
        created.body.createdAt,
        created.body.updatedAt,
        cancelled.body.cancelledAt,
        listed.body.documents[0].createdAt,
        form.body.uploadedAt,
        paid.body.uploadedAt,
      ]);
    }
    expect(stamps[0]).toEqual([
      '2026-11-23T18:00:01.123Z',
      '2026-11-23T18:00:01.123Z',
      '2026-11-23T18:00:01.123Z',
      '2026-11-23T18:00:01.123Z',
      '2026-11-23T18:00:01.123Z',
      '2026-11-23T18:00:01.123Z',
    ]);
    expect(stamps[1]).toEqual(stamps[0]!.map(() => '2026-11-23T18:00:01.123000+00:00'));
    // The same instants, whatever the form.
    expect(stamps[1]!.map(Date.parse)).toEqual(stamps[0]!.map(Date.parse));
  });

  it(choice('spv-request-list-entries'), async () => {
    for (const s of [both.def, both.alt]) await createSpv(s);
    const [def, alt] = await Promise.all(
      [both.def, both.alt].map((s) => s.call('GET', '/v1/spv-requests', { token: s.token })),
    );
    expect(Object.keys(def!.body.documents[0])).toEqual(Object.keys((await getOne(both.def)).body));
    expect(Object.keys(alt!.body.documents[0]).sort()).toEqual(
      ['createdAt', 'spvRequestSlug', 'status', 'templateId'].sort(),
    );
    expect(alt!.body).toMatchObject({ count: 1, skip: 0, limit: 10 });
  });

  async function getOne(s: Started) {
    const list = await s.call('GET', '/v1/spv-requests', { token: s.token });
    return s.call('GET', `/v1/spv-requests/${list.body.documents[0].spvRequestSlug}`, { token: s.token });
  }

  it(choice('spv-request-list-count'), async () => {
    const counts: number[] = [];
    for (const s of [both.def, both.alt]) {
      await createSpv(s);
      await createSpv(s);
      const page = await s.call('GET', '/v1/spv-requests?perPage=1&page=1', { token: s.token });
      expect(page.body.documents).toHaveLength(1);
      counts.push(page.body.count);
    }
    // The default counts the whole list (this test's two requests at least); the alternate counts the page.
    expect(counts[0]).toBeGreaterThanOrEqual(2);
    expect(counts[1]).toBe(1);
  });

  it(choice('spv-request-list-order'), async () => {
    const orders: boolean[] = [];
    for (const s of [both.def, both.alt]) {
      const first = await createSpv(s);
      await s.fake.clock.advance(1000);
      const second = await createSpv(s);
      const page = await s.call('GET', '/v1/spv-requests?perPage=1&page=1', { token: s.token });
      orders.push(page.body.documents[0].spvRequestSlug === second.body.spvRequestSlug);
      expect([first.body.spvRequestSlug, second.body.spvRequestSlug]).toContain(
        page.body.documents[0].spvRequestSlug,
      );
    }
    expect(orders).toEqual([true, false]); // default newest first, alternate oldest first
  });

  it(choice('spv-request-create-body'), async () => {
    const extra = { ...spvBody(), note: 'not in the schema' };
    const [def, alt] = [await createSpv(both.def, extra), await createSpv(both.alt, extra)];
    expect(def.status).toBe(201);
    expect(alt.status).toBe(422);
    expect(alt.body).toEqual({
      detail: [{ loc: ['body', 'note'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }],
    });
    const nullVersion = { ...spvBody(), templateVersion: null };
    expect((await createSpv(both.alt, nullVersion)).body.templateVersion).toBe('2025-06');
    expect((await createSpv(both.def, nullVersion)).status).toBe(422);
  });

  it(`${choice('setup-fee')} / ${choice('share-class-slugs')}`, async () => {
    const classes = [];
    for (const s of [both.def, both.alt]) {
      const created = await createSpv(s);
      s.fake.admin.approveSpvRequest(created.body.spvRequestSlug);
      const got = await s.call('GET', `/v1/spv-requests/${created.body.spvRequestSlug}`, { token: s.token });
      classes.push(got.body.feesAndCarry.shareClasses);
    }
    expect(classes[0].map((c: { slug: string; setupFee: object }) => [c.slug, c.setupFee])).toEqual([
      ['class-a', { amount: '500', currency: 'EUR' }],
      ['class-b', { amount: '0', currency: 'EUR' }],
    ]);
    expect(classes[1].map((c: { slug: string; setupFee: object }) => c.setupFee)).toEqual([
      { value: '500', currencyCode: 'EUR' },
      { value: '0', currencyCode: 'EUR' },
    ]);
    const slugs = classes[1].map((c: { slug: string }) => c.slug);
    for (const slug of slugs) expect(slug).toMatch(/^shc_[0-9a-z]{20}$/);
    expect(new Set(slugs).size).toBe(2);
  });
});

describe('alternate profile: investors and subscriptions', () => {
  const rows = [
    { partnerInvestorId: 'i-min', email: 'min@example.com' },
    { partnerInvestorId: 'i-null', email: 'n@example.com', firstName: null, dateOfBirth: null },
    investor('i-lower', { countryOfResidence: 'gb' }),
    investor('i-1850', { dateOfBirth: '1850-01-01' }),
    investor('i-long', { firstName: 'x'.repeat(200) }),
    investor('i-too-long', { firstName: 'x'.repeat(256) }),
    investor('i-no-email', { email: undefined }),
  ];

  it(choice('investor-fields'), async () => {
    const outcome = async (s: Started) => {
      const reply = await s.call('POST', '/v1/investors', { token: s.token, json: { investors: rows } });
      return reply.body.results.map((r: { error: { field: string } | null }) => r.error?.field ?? 'ok');
    };
    expect(await outcome(both.def)).toEqual([
      'firstName',
      'firstName',
      'countryOfResidence',
      'dateOfBirth',
      'firstName',
      'firstName',
      'email',
    ]);
    expect(await outcome(both.alt)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'firstName', 'email']);
    const stored = both.alt.fake.admin.snapshot().persons;
    expect(stored.find((p) => p.partnerInvestorId === 'i-lower')?.countryOfResidence).toBe('GB');
    expect(stored.find((p) => p.partnerInvestorId === 'i-null')).not.toHaveProperty('firstName');
  });

  it(`${choice('investor-statuses')} / ${choice('investor-error-codes')}`, async () => {
    const answers = [];
    for (const s of [both.def, both.alt]) {
      s.fake.faults.failInvestorRows({ partnerInvestorId: 'i-busy' });
      const batch = [
        investor('i-1'),
        investor('i-1'),
        investor('i-mail', { email: 'nope' }),
        investor('i-born', { dateOfBirth: '2999-01-01' }),
        investor('i-land', { countryOfResidence: 'XX' }),
        investor('i-type', { lastName: 42 }),
        { partnerInvestorId: 'i-missing' },
        investor('i-busy'),
      ];
      await s.call('POST', '/v1/investors', { token: s.token, json: { investors: [investor('i-old')] } });
      const reply = await s.call('POST', '/v1/investors', {
        token: s.token,
        json: { investors: [investor('i-old'), ...batch] },
      });
      answers.push(
        reply.body.results.map((r: { status: string; error?: { code: string; field?: string | null } }) => [
          r.status,
          r.error?.code,
          r.error?.field,
        ]),
      );
    }
    expect(answers[0]).toEqual([
      ['existing', undefined, undefined],
      ['created', undefined, undefined],
      ['failed', 'duplicate_in_request', 'partnerInvestorId'],
      ['failed', 'invalid_email', 'email'],
      ['failed', 'invalid_date_of_birth', 'dateOfBirth'],
      ['failed', 'invalid_country', 'countryOfResidence'],
      ['failed', 'invalid_field', 'lastName'],
      ['failed', 'missing_field', 'email'],
      ['failed', 'temporarily_unavailable', 'partnerInvestorId'],
    ]);
    expect(answers[1]).toEqual([
      ['already_exists', undefined, undefined],
      ['success', undefined, undefined],
      ['error', 'duplicate_row', 'partnerInvestorId'],
      ['error', 'email_invalid', 'email'],
      ['error', 'date_of_birth_invalid', 'dateOfBirth'],
      ['error', 'country_invalid', 'countryOfResidence'],
      ['error', 'field_invalid', 'lastName'],
      ['error', 'field_required', 'email'],
      ['error', 'try_again_later', null],
    ]);
  });

  it(`${choice('investor-row-limit')} / ${choice('subscription-row-limit')}`, async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => investor(`bulk-${i}`));
    const limits = [];
    for (const s of [both.def, both.alt]) {
      const post = (n: number) =>
        s.call('POST', '/v1/investors', { token: s.token, json: { investors: many(n) } });
      const sub = (n: number) =>
        s.call('POST', '/v1/spvs/spv_none/subscriptions', {
          token: s.token,
          json: {
            subscriptions: Array.from({ length: n }, () => ({
              servicePersonId: 'per_x',
              lumpSum: { currency: 'EUR', value: '1' },
              shareClassSlug: 'x',
            })),
          },
        });
      // 404 (unknown SPV) means the row count passed the 422 check.
      limits.push([(await post(500)).status, (await post(501)).status, (await sub(501)).status]);
      limits.push([(await post(1000)).status, (await post(1001)).status, (await sub(1001)).status]);
    }
    expect(limits).toEqual([
      [200, 422, 422],
      [422, 422, 422],
      [200, 200, 404],
      [200, 422, 422],
    ]);
  });

  it(`${choice('subscription-statuses')} / ${choice('subscription-lump-sum')}`, async () => {
    const seen = [];
    for (const s of [both.def, both.alt]) {
      const { reply, base } = await subscribed(s, 'ps-1');
      const result = reply.body.results[0];
      await s.call('POST', `${base}/forms`, { token: s.token, body: uploadForm(files.pdf, 'f.pdf') });
      s.fake.admin.completeSubscription(result.subscriptionSlug);
      seen.push([result.status, result.lumpSum, result.partnerSubscriptionId]);
    }
    expect(seen).toEqual([
      ['awaiting-signed-form', { currency: 'EUR', value: '25000.50' }, 'ps-1'],
      ['Pending', { amount: '25000.50', currencyCode: 'EUR' }, 'ps-1'],
    ]);
  });
});

describe('alternate profile: uploads', () => {
  it(choice('file-urls'), async () => {
    for (const s of [both.def, both.alt]) {
      const { base } = await subscribed(s);
      const form = await s.call('POST', `${base}/forms`, {
        token: s.token,
        body: uploadForm(files.pdf, 'f.pdf'),
      });
      const paid = await s.call('POST', `${base}/fundings`, {
        token: s.token,
        body: receipt(files.png, 'r.png'),
      });
      const urls = [form.body.subscriptionFormUrl, paid.body.fundingReceiptUrl] as string[];
      for (const url of urls) {
        if (s === both.def) expect(url.startsWith(`${s.partner.baseUrl}/files/`)).toBe(true);
        else expect(url).toMatch(/^\/files\/file_[0-9a-z]{20}\/[fr]\.(pdf|png)$/);
        // Either way the document is there, relative URLs resolved against the base URL.
        const download = await s.call('GET', new URL(url, s.partner.baseUrl).pathname);
        expect(download.status).toBe(200);
      }
    }
  });

  it(choice('upload-idempotency'), async () => {
    const outcomes = [];
    for (const s of [both.def, both.alt]) {
      const { base } = await subscribed(s);
      const send = () =>
        s.call('POST', `${base}/forms`, {
          token: s.token,
          headers: { 'idempotency-key': 'form-1' },
          body: uploadForm(files.pdf, 'f.pdf'),
        });
      const first = await send();
      const second = await send();
      outcomes.push([
        second.headers.get('idempotent-replayed'),
        second.body.subscriptionFormUrl === first.body.subscriptionFormUrl,
        s.fake.requests.filter((r) => r.path.endsWith('/forms')).map((r) => r.idempotencyKey),
      ]);
    }
    expect(outcomes).toEqual([
      ['true', true, ['form-1', 'form-1']],
      [null, false, [undefined, undefined]],
    ]);
  });

  it(choice('funding-receipt-types'), async () => {
    const statuses = [];
    for (const s of [both.def, both.alt]) {
      const { base } = await subscribed(s);
      await s.call('POST', `${base}/forms`, { token: s.token, body: uploadForm(files.pdf, 'f.pdf') });
      const text = await s.call('POST', `${base}/fundings`, {
        token: s.token,
        body: receipt(files.text, 'r.txt'),
      });
      const form = await s.call('POST', `${base}/forms`, {
        token: s.token,
        body: uploadForm(files.text, 'f.txt'),
      });
      statuses.push([text.status, form.status]);
    }
    expect(statuses).toEqual([
      [415, 415],
      [201, 415],
    ]);
  });
});

describe('alternate profile: webhooks', () => {
  it(choice('webhook-payloads'), async () => {
    const datas: Record<string, unknown>[] = [];
    for (const s of [both.def, both.alt]) {
      const receiver = await startReceiver();
      try {
        s.fake.webhooks.register({ url: receiver.url });
        const created = await createSpv(s);
        await s.fake.idle();
        const event = JSON.parse(receiver.received[0]?.body ?? '{}') as {
          type: string;
          data: Record<string, unknown>;
        };
        expect(event.type).toBe('spv_request.created');
        expect(event.data['spvRequestSlug']).toBe(created.body.spvRequestSlug);
        datas.push(event.data);
      } finally {
        await receiver.close();
      }
    }
    // The default sends the whole request; the alternate only what identifies it.
    expect(Object.keys(datas[0] ?? {})).toEqual(
      expect.arrayContaining(['templateId', 'attributes', 'createdAt']),
    );
    expect(Object.keys(datas[1] ?? {}).sort()).toEqual(['spvRequestSlug', 'status']);
  });
});
