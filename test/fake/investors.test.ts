import { afterEach, describe, expect, it } from 'vitest';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import { InvestorCreateResponse } from '../../src/testing/wire/index.js';
import { http, idem, investor, login, startFake } from './helpers.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

async function setup() {
  const started = await startFake();
  fake = started.fake;
  const post = (investors: unknown[], headers: Record<string, string> = {}) =>
    started.call('POST', '/v1/investors', { token: started.token, headers, json: { investors } });
  return { ...started, post };
}

describe('POST /v1/investors', () => {
  it('200 with one result per row in input order; bad rows fail alone with code, message, retryable, field', async () => {
    const { post } = await setup();
    const reply = await post([
      investor('inv-1'),
      investor('inv-2', { email: 'not-an-email' }),
      investor('inv-3', { dateOfBirth: '1990-02-30' }),
      investor('inv-4', { dateOfBirth: '2999-01-01' }),
      investor('inv-5', { countryOfResidence: 'XX' }),
      investor('inv-6', { firstName: undefined }),
      investor('inv-7', { lastName: 42 }),
      investor('inv-1'),
      { email: 'x@example.com' },
      investor('inv-8', { nickname: 'ignored' }),
    ]);
    expect(reply.status).toBe(200);
    const { results } = InvestorCreateResponse.parse(reply.body);
    const summary = results.map((r) => [r.partnerInvestorId, r.status, r.error?.code, r.error?.field]);
    expect(summary).toEqual([
      ['inv-1', 'created', undefined, undefined],
      ['inv-2', 'failed', 'invalid_email', 'email'],
      ['inv-3', 'failed', 'invalid_date_of_birth', 'dateOfBirth'],
      ['inv-4', 'failed', 'invalid_date_of_birth', 'dateOfBirth'],
      ['inv-5', 'failed', 'invalid_country', 'countryOfResidence'],
      ['inv-6', 'failed', 'missing_field', 'firstName'],
      ['inv-7', 'failed', 'invalid_field', 'lastName'],
      ['inv-1', 'failed', 'duplicate_in_request', 'partnerInvestorId'],
      ['', 'failed', 'missing_field', 'partnerInvestorId'],
      ['inv-8', 'created', undefined, undefined],
    ]);
    for (const row of results.filter((r) => r.status === 'failed')) {
      expect(row.error).toMatchObject({ message: expect.any(String), retryable: false });
      expect(row).not.toHaveProperty('servicePersonId');
    }
    expect(results[0]!.servicePersonId).toMatch(/^per_/);
    expect(fake.admin.snapshot().persons.map((p) => p.partnerInvestorId)).toEqual(['inv-1', 'inv-8']);
  });

  it('a repeated partnerInvestorId returns the existing servicePersonId (status existing)', async () => {
    const { post } = await setup();
    const first = (await post([investor('inv-1')])).body.results[0];
    const again = (await post([investor('inv-1', { firstName: 'Changed' }), investor('inv-2')])).body.results;
    expect(again[0]).toEqual({
      partnerInvestorId: 'inv-1',
      status: 'existing',
      servicePersonId: first.servicePersonId,
    });
    expect(again[1].status).toBe('created');
    expect(fake.admin.snapshot().persons).toHaveLength(2);
  });

  it('scoping: the same partnerInvestorId under another client is another person', async () => {
    const { post } = await setup();
    const mine = (await post([investor('inv-1')])).body.results[0].servicePersonId;
    const other = await fake.createPartner();
    const token = (await login(fake, other)).accessToken;
    const theirs = await http(other.baseUrl)('POST', '/v1/investors', {
      token,
      json: { investors: [investor('inv-1')] },
    });
    expect(theirs.body.results[0].status).toBe('created');
    expect(theirs.body.results[0].servicePersonId).not.toBe(mine);
  });

  it('faults.failInvestorRows gives a retryable row error inside a 200', async () => {
    const { post } = await setup();
    fake.faults.failInvestorRows({ partnerInvestorId: 'inv-2' });
    const { results } = (await post([investor('inv-1'), investor('inv-2')])).body;
    expect(results[1]).toMatchObject({
      status: 'failed',
      error: { code: 'temporarily_unavailable', retryable: true },
    });
    expect((await post([investor('inv-2')])).body.results[0].status).toBe('created');
  });

  it('Idempotency-Key (optional): replay of the first response, 409 with another body', async () => {
    const { post } = await setup();
    const headers = idem();
    const first = await post([investor('inv-1')], headers);
    const replay = await post([investor('inv-1')], headers);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const conflict = await post([investor('inv-2')], headers);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_key_conflict');
    expect((await post([investor('inv-3')])).status).toBe(200);
  });

  it('422 for a body without an investors array, an empty array, non-object rows, or more than 500 rows', async () => {
    const { call, token, post } = await setup();
    const noArray = await call('POST', '/v1/investors', { token, json: { investor: [] } });
    expect(noArray.body.detail[0]).toMatchObject({ loc: ['body', 'investors'], type: 'missing' });
    expect((await post([])).body.detail[0]).toMatchObject({ loc: ['body', 'investors'], type: 'too_short' });
    expect((await post(['inv-1'])).body.detail[0].loc).toEqual(['body', 'investors', '0']);
    const many = Array.from({ length: 501 }, (_, i) => investor(`inv-${i}`));
    const tooMany = await post(many);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0]).toMatchObject({ loc: ['body', 'investors'], type: 'too_long' });
    expect((await post(many.slice(0, 500))).body.results).toHaveLength(500);
  });

  it('401 without a token', async () => {
    const { call } = await setup();
    expect((await call('POST', '/v1/investors', { json: { investors: [investor('a')] } })).status).toBe(401);
  });
});
