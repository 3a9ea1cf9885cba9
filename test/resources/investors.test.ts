import { describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InputValidationError,
  InternalServerError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '../../src/core/errors/errors.js';
import type { InvestorInput } from '../../src/schemas/investors.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { investorRows } from './fixtures.js';

/** The error a resolved bulk call reports: the one that stopped it, else its first chunk's. */
const stoppedBy = (result: { error?: unknown; chunks: { error?: unknown }[] }) =>
  result.error ?? result.chunks.find((chunk) => chunk.error !== undefined)?.error;

const api = useFakeApi();
const posts = (env: FakeEnv) =>
  env.apiRequests().filter((r) => r.method === 'POST' && r.path === '/v1/investors');

describe('client.investors.create', () => {
  it('creates every row and answers in input order; a re-run returns the same ids and creates nothing', async () => {
    const env = await api.start();
    const rows = investorRows(3);
    const { data: first, response } = await env.client.investors.create(rows).withResponse();
    expect(first.results.map((r) => [r.partnerInvestorId, r.status])).toEqual([
      ['inv-0', 'created'],
      ['inv-1', 'created'],
      ['inv-2', 'created'],
    ]);
    expect(first.succeeded).toHaveLength(3);
    expect(first.failed).toEqual([]);
    expect(response).toMatchObject({ status: 200, attempts: 1 });
    expect(posts(env)[0]?.headers['idempotency-key']).toBe(first.chunks[0]?.idempotencyKey);

    const again = await env.client.investors.create(rows);
    expect(again.results.map((r) => r.servicePersonId)).toEqual(first.results.map((r) => r.servicePersonId));
    expect(again.results.every((r) => r.status === 'existing')).toBe(true);
    expect(env.fake.admin.snapshot().persons).toHaveLength(3);
  });

  it('refuses rows breaking a stated format (not sent) and sends the rest for the server to judge', async () => {
    const env = await api.start();
    const [a, b, c, d, e, f] = investorRows(6);
    const rows = [
      a,
      { ...b, email: 'not-an-email' },
      { ...c, dateOfBirth: '2023-02-30' },
      { ...d, countryOfResidence: 'DEU' },
      { ...e, lastName: undefined },
      { ...f, nickname: 'Zed' },
    ] as InvestorInput[];
    const result = await env.client.investors.create(rows);
    expect(result.results.map((r) => r.partnerInvestorId)).toEqual(rows.map((r) => r.partnerInvestorId));
    // The SDK requires no field but partnerInvestorId: the row without lastName goes to the server, which
    // (in the fake's default profile) requires it; the unknown field is passed through and ignored there.
    expect(result.succeeded.map((r) => r.partnerInvestorId)).toEqual(['inv-0', 'inv-5']);
    const clientSide = { code: 'invalid_field', retryable: false, message: expect.any(String) };
    expect(result.failed.map((r) => r.error)).toEqual([
      { ...clientSide, field: 'email', message: expect.stringMatching(/^email: /) },
      { ...clientSide, field: 'dateOfBirth' },
      { ...clientSide, field: 'countryOfResidence' },
      expect.objectContaining({ field: 'lastName', retryable: false }),
    ]);
    expect(result.failed.every((r) => r.status === 'failed')).toBe(true);
    expect(result.retryable).toEqual([]);
    expect(result.chunks).toMatchObject([{ index: 0, rows: 3, sent: true, status: 200 }]);
    expect(env.fake.admin.snapshot().persons.map((p) => p.partnerInvestorId)).toEqual(['inv-0', 'inv-5']);
  });

  it("a row the SDK refuses has the API's row shape: status failed, error { code, message, retryable, field }", async () => {
    const env = await api.start();
    const bad = { ...investorRows(1)[0]!, email: 'nope' };
    const sdk = await env.client.investors.create([bad]);
    expect(env.fake.requests).toHaveLength(0); // refused client-side: nothing sent
    expect(sdk.results).toEqual([
      {
        partnerInvestorId: bad.partnerInvestorId,
        status: 'failed',
        error: {
          code: 'invalid_field',
          field: 'email',
          retryable: false,
          message: 'email: Expected an e-mail address',
        },
      },
    ]);
  });

  it('reports a repeated partnerInvestorId: the first occurrence is sent, later ones fail (across chunks too)', async () => {
    const env = await api.start();
    const rows = investorRows(4);
    rows[3] = { ...rows[3]!, partnerInvestorId: 'inv-0', email: 'other@example.com' };
    const result = await env.client.investors.create(rows, { chunkSize: 2 });
    expect(result.results[0]?.status).toBe('created');
    expect(result.results[3]).toEqual({
      partnerInvestorId: 'inv-0',
      status: 'failed',
      error: {
        code: 'duplicate_in_request',
        message: 'partnerInvestorId also appears at index 0 of this call; only that row was sent',
        retryable: false,
        field: 'partnerInvestorId',
      },
    });
    expect(posts(env)).toHaveLength(2);
    expect(env.fake.admin.snapshot().persons.find((p) => p.partnerInvestorId === 'inv-0')?.email).toBe(
      'investor0@example.com',
    );
  });

  it('hands back retryable rows (the API said temporarily_unavailable) ready to send again', async () => {
    const env = await api.start();
    env.fake.faults.failInvestorRows({ partnerInvestorId: 'inv-1' });
    const rows = investorRows(3);
    const first = await env.client.investors.create(rows);
    expect(first.failed.map((r) => [r.partnerInvestorId, r.error?.code, r.error?.retryable])).toEqual([
      ['inv-1', 'temporarily_unavailable', true],
    ]);
    expect(first.retryable).toEqual([rows[1]]);
    const retried = await env.client.investors.create(first.retryable);
    expect(retried.results).toMatchObject([{ partnerInvestorId: 'inv-1', status: 'created' }]);
  });

  it('a chunk that keeps failing after retries fails its rows (retryable) and the other chunks go through', async () => {
    const env = await api.start();
    env.fake.faults.inject({ match: { method: 'POST', path: '/v1/investors' }, status: 503, times: 3 });
    const result = await env.client.investors.create(investorRows(6), { chunkSize: 2, concurrency: 1 });
    expect(result.results.map((r) => r.error?.code ?? r.status)).toEqual([
      'request_failed',
      'request_failed',
      'created',
      'created',
      'created',
      'created',
    ]);
    expect(result.failed[0]?.error).toMatchObject({ retryable: true, message: expect.stringMatching(/503/) });
    expect(result.chunks[0]?.error).toBeInstanceOf(InternalServerError);
    expect(result.chunks[0]).toMatchObject({ attempts: 3, status: 503, sent: true });
    expect(result.retryable.map((r) => r.partnerInvestorId)).toEqual(['inv-0', 'inv-1']);
    expect(posts(env)).toHaveLength(5);
  });

  it('a chunk refused for good stops later chunks, whose rows fail as not_sent', async () => {
    const env = await api.start();
    let injected = false;
    const result = await env.client.investors.create(investorRows(6), {
      chunkSize: 2,
      concurrency: 1,
      onProgress: () => {
        if (injected) return;
        injected = true;
        env.fake.faults.inject({ match: { method: 'POST', path: '/v1/investors' }, status: 400 });
      },
    });
    expect(result.results.map((r) => r.error?.code ?? r.status)).toEqual([
      'created',
      'created',
      'request_failed',
      'request_failed',
      'not_sent',
      'not_sent',
    ]);
    expect(result.results[4]?.error?.message).toBe(
      'Not sent: chunk 1 failed with injected_fault; send this row again',
    );
    expect(result.chunks.map((c) => c.sent)).toEqual([true, true, false]);
    expect(result.chunks[1]?.error).toBeInstanceOf(BadRequestError);
    expect(result.results[2]?.error?.retryable).toBe(false);
    expect(result.retryable.map((r) => r.partnerInvestorId)).toEqual(['inv-4', 'inv-5']);
    expect(posts(env)).toHaveLength(2);
  });

  it('rejects when nothing was answered: 401, 403, 409 and 422 surface as typed errors', async () => {
    const env = await api.start();
    const rows = investorRows(2);
    const stranger = await api.partner(env, { wrongKey: true });
    expect(await stranger.client.investors.create(rows).then(stoppedBy)).toBeInstanceOf(AuthenticationError);
    const unprovisioned = await api.partner(env, { provisioned: false });
    const denied = await unprovisioned.client.investors.create(rows).then(stoppedBy);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect(denied).toMatchObject({ status: 403, code: 'not_provisioned' });

    // A key forced through headers (the SDK never reuses a key for another body on its own).
    const headers = { 'Idempotency-Key': 'forced-key' };
    await env.client.investors.create(rows, { headers });
    const conflict = await env.client.investors.create(investorRows(1, 'other'), { headers }).then(stoppedBy);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ code: 'idempotency_key_conflict', idempotencyKey: 'forced-key' });
    const invalid = await env.client.investors
      .create(rows, { headers: { 'Idempotency-Key': 'not valid' } })
      .then(stoppedBy);
    expect(invalid).toBeInstanceOf(UnprocessableEntityError);
  });

  it('throws only for a malformed call, naming every malformed row; nothing is sent', async () => {
    const env = await api.start();
    const notArray = await env.client.investors.create({} as never).catch((e: unknown) => e);
    expect(notArray).toBeInstanceOf(InputValidationError);
    expect((notArray as InputValidationError).issues).toEqual([
      { path: 'investors', message: 'Expected an array or an AsyncIterable of investor rows' },
    ]);
    const rows = [investorRows(1)[0], null, { email: 'a@b.co' }, { partnerInvestorId: '' }] as never;
    const malformed = await env.client.investors.create(rows).catch((e: unknown) => e);
    expect((malformed as InputValidationError).issues.map((i) => i.path)).toEqual([
      'investors.1',
      'investors.2.partnerInvestorId',
      'investors.3.partnerInvestorId',
    ]);
    // A hole in a sparse array is a missing row, named like the others (it used to throw a TypeError).
    const sparse = [investorRows(1)[0]];
    sparse[2] = investorRows(2)[1];
    const holes = await env.client.investors.create(sparse as never).catch((e: unknown) => e);
    expect(holes).toBeInstanceOf(InputValidationError);
    expect((holes as InputValidationError).issues.map((i) => i.path)).toEqual(['investors.1']);
    const options = await env.client.investors
      .create(investorRows(1), {
        chunkSize: 0,
        concurrency: 0,
        onProgress: 'yes' as never,
        idempotencyKey: '',
      })
      .catch((e: unknown) => e);
    expect((options as InputValidationError).issues.map((i) => i.path)).toEqual([
      'chunkSize',
      'concurrency',
      'onProgress',
      'idempotencyKey',
    ]);
    expect(env.fake.requests).toHaveLength(0);
  });

  it('an empty array, or only refused rows, sends nothing and still reports progress once', async () => {
    const env = await api.start();
    const empty = await env.client.investors.create([]).withResponse();
    expect(empty.data.results).toEqual([]);
    expect(empty.response).toMatchObject({ status: 0, attempts: 0 });
    const progress: unknown[] = [];
    const refused = await env.client.investors.create([{ ...investorRows(1)[0]!, email: 'x' }], {
      onProgress: (p) => progress.push(p),
    });
    expect(refused.failed).toHaveLength(1);
    expect(progress).toEqual([{ done: 1, total: 1, succeeded: 0, failed: 1 }]);
    expect(env.fake.requests).toHaveLength(0);
  });

  it('an already aborted signal rejects with APIUserAbortError and sends nothing', async () => {
    const env = await api.start();
    const error = await env.client.investors
      .create(investorRows(2), { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(env.apiRequests()).toHaveLength(0);
  });
});
