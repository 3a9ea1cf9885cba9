import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InputValidationError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '../../src/core/errors/errors.js';
import type { SpvRequestCreate } from '../../src/schemas/spv-requests.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { spvBody } from './fixtures.js';

const api = useFakeApi();
const creates = (env: FakeEnv) =>
  env.apiRequests().filter((r) => r.method === 'POST' && r.path === '/v1/spv-requests');

describe('client.spvRequests.create', () => {
  it('creates a pending request, always with an Idempotency-Key it reports on the response', async () => {
    const env = await api.start();
    const { data, response } = await env.client.spvRequests.create(await spvBody(env.client)).withResponse();
    expect(data).toMatchObject({
      status: 'pending-review',
      templateId: 'spv-standard',
      clientId: env.clientId,
    });
    expect(response.status).toBe(201);
    await env.client.spvRequests.create(await spvBody(env.client));
    const [sent, next] = creates(env);
    // A fresh UUID v4 per call (the same on its retries): two calls never share one.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(sent?.idempotencyKey).toMatch(uuid);
    expect(next?.idempotencyKey).toMatch(uuid);
    expect(next?.idempotencyKey).not.toBe(sent?.idempotencyKey);
    expect(response.idempotencyKey).toBe(sent?.idempotencyKey);
  });

  it('retries a 503 and a lost response with the same key: one request exists in the fake', async () => {
    const env = await api.start();
    const body = await spvBody(env.client);
    env.fake.faults.inject({ match: { method: 'POST', path: '/v1/spv-requests' }, status: 503 });
    env.fake.faults.inject({ match: { method: 'POST', path: '/v1/spv-requests' }, drop: 'after' });
    const { data, response } = await env.client.spvRequests.create(body).withResponse();
    expect(response.attempts).toBe(3);
    const sent = creates(env);
    expect(sent.map((r) => r.fault ?? r.status)).toEqual(['status', 'drop-after', 201]);
    expect(new Set(sent.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(sent.at(-1)?.replayed).toBe(true);
    expect(env.fake.admin.snapshot().spvRequests.map((r) => r.spvRequestSlug)).toEqual([data.spvRequestSlug]);
  });

  it("sends the caller's key; the same key replays, the same key with another body is a ConflictError", async () => {
    const env = await api.start();
    const body = await spvBody(env.client);
    const first = await env.client.spvRequests.create(body, { idempotencyKey: 'deal-42' });
    const again = await env.client.spvRequests.create(body, { idempotencyKey: 'deal-42' });
    expect(again.spvRequestSlug).toBe(first.spvRequestSlug);
    const other: SpvRequestCreate = { ...body, attributes: { ...body.attributes, name: 'Another SPV' } };
    const error = await env.client.spvRequests
      .create(other, { idempotencyKey: 'deal-42' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'idempotency_key_conflict', idempotencyKey: 'deal-42' });
    expect((error as ConflictError).errorId).toBeTruthy();
    expect(env.fake.admin.snapshot().spvRequests).toHaveLength(1);
  });

  it('400 contract validation names the attributes; 404 for an unknown template', async () => {
    const env = await api.start();
    const body = await spvBody(env.client);
    const invalid = await env.client.spvRequests
      .create({ ...body, attributes: { ...body.attributes, shareClasses: 'none' } })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect(invalid).toMatchObject({ status: 400, code: 'contract_validation_failed' });
    expect((invalid as BadRequestError).validationErrors.map((v) => v.attribute)).toContain('shareClasses');
    const unknown = await env.client.spvRequests
      .create({ ...body, templateId: 'no-such-template' })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ status: 404, code: 'template_not_found' });
    expect((unknown as NotFoundError).detail).toContain('no-such-template');
  });

  it('401 for a client the fake cannot authenticate, 403 for an unprovisioned one', async () => {
    const env = await api.start();
    const body = await spvBody(env.client);
    const stranger = await api.partner(env, { wrongKey: true });
    await expect(stranger.client.spvRequests.create(body)).rejects.toBeInstanceOf(AuthenticationError);
    const unprovisioned = await api.partner(env, { provisioned: false });
    const error = await unprovisioned.client.spvRequests.create(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'not_provisioned', attempts: 1 });
  });

  it('422 from the API surfaces with its issues (a malformed key forced through headers)', async () => {
    const env = await api.start();
    const error = await env.client.spvRequests
      .create(await spvBody(env.client), { headers: { 'Idempotency-Key': 'has spaces' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).issues[0]?.loc).toEqual(['header', 'Idempotency-Key']);
  });

  it('refuses bad input before sending, naming every bad field', async () => {
    const env = await api.start();
    const error = await env.client.spvRequests
      .create({ attributes: 'x', extra: 1 } as unknown as SpvRequestCreate, { idempotencyKey: 'white space' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues.map((i) => i.path).sort()).toEqual([
      'idempotencyKey',
      'templateId',
    ]);
    expect(env.fake.requests).toHaveLength(0);
  });

  it('passes fields the spec does not show through to the server, as given', async () => {
    const env = await api.start();
    const body = await spvBody(env.client);
    const created = await env.client.spvRequests.create({ ...body, dealOwner: 'ops@partner.example' });
    // The fake (default profile) ignores unknown create fields; what matters is that they were sent.
    expect(created.templateId).toBe(body.templateId);
    const { response } = await env.client.spvRequests
      .create({ ...body, dealOwner: 'ops@partner.example' }, { idempotencyKey: 'k-pass' })
      .withResponse();
    expect(response.status).toBe(201);
    expect(env.apiRequests().at(-1)?.headers['content-length']).toBe(
      String(Buffer.byteLength(JSON.stringify({ ...body, dealOwner: 'ops@partner.example' }))),
    );
  });
});

describe('client.spvRequests.list / get / cancel', () => {
  it('await gives one page; for await walks every page lazily; status filters', async () => {
    const env = await api.start();
    const body = await spvBody(env.client);
    const slugs: string[] = [];
    for (let i = 0; i < 23; i++) slugs.push((await env.client.spvRequests.create(body)).spvRequestSlug);
    env.fake.admin.approveSpvRequest(slugs[0]!);
    env.fake.admin.rejectSpvRequest(slugs[1]!, 'Incomplete');

    const page = await env.client.spvRequests.list({ perPage: 10, page: 2 });
    expect(page).toMatchObject({ count: 23, skip: 10, limit: 10 });
    expect(page.documents).toHaveLength(10);

    const before = env.apiRequests().length;
    const seen: string[] = [];
    for await (const request of env.client.spvRequests.list({ perPage: 10 }))
      seen.push(request.spvRequestSlug ?? '');
    expect(seen.sort()).toEqual([...slugs].sort());
    const listed = env.apiRequests().slice(before);
    expect(listed.map((r) => r.query)).toEqual([
      '?perPage=10&page=1',
      '?perPage=10&page=2',
      '?perPage=10&page=3',
    ]);

    const approved: string[] = [];
    for await (const request of env.client.spvRequests.list({ status: 'approved' }))
      approved.push(request.spvRequestSlug ?? '');
    expect(approved).toEqual([slugs[0]]);
    const rejected = await env.client.spvRequests.list({ status: 'rejected' });
    expect(rejected.documents[0]).toMatchObject({ status: 'rejected', rejectionReason: 'Incomplete' });
  });

  it('breaking out of for await fetches no further page', async () => {
    const env = await api.start();
    const body = await spvBody(env.client);
    for (let i = 0; i < 5; i++) await env.client.spvRequests.create(body);
    const before = env.apiRequests().length;
    for await (const _ of env.client.spvRequests.list({ perPage: 2 })) break;
    expect(env.apiRequests().length - before).toBe(1);
  });

  it('refuses bad list parameters before sending, naming each; a 422 from the API surfaces typed', async () => {
    const env = await api.start();
    const error = await env.client.spvRequests
      .list({ perPage: 101, page: 0, status: 'done' } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues.map((i) => i.path).sort()).toEqual([
      'page',
      'perPage',
      'status',
    ]);
    await expect(env.client.spvRequests.list({ perPage: 2.5 })).rejects.toThrow(/perPage/);
    expect(env.fake.requests).toHaveLength(0);

    env.fake.faults.inject({ match: { method: 'GET', path: '/v1/spv-requests' }, status: 422 });
    const unprocessable = await env.client.spvRequests.list().catch((e: unknown) => e);
    expect(unprocessable).toBeInstanceOf(UnprocessableEntityError);
    expect((unprocessable as UnprocessableEntityError).issues).toEqual([
      { loc: ['body'], msg: 'Injected fault', type: 'injected_fault' },
    ]);
  });

  it('list: 401 and 403', async () => {
    const env = await api.start();
    const stranger = await api.partner(env, { wrongKey: true });
    await expect(stranger.client.spvRequests.list()).rejects.toBeInstanceOf(AuthenticationError);
    const unprovisioned = await api.partner(env, { provisioned: false });
    await expect(unprovisioned.client.spvRequests.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it("get reads one request; another partner's slug is a 404; a malformed slug is the API's 422", async () => {
    const env = await api.start();
    const created = await env.client.spvRequests.create(await spvBody(env.client));
    await expect(env.client.spvRequests.get(created.spvRequestSlug)).resolves.toEqual(created);
    const other = await api.partner(env);
    const notYours = await other.client.spvRequests.get(created.spvRequestSlug).catch((e: unknown) => e);
    expect(notYours).toBeInstanceOf(NotFoundError);
    expect(notYours).toMatchObject({
      code: 'spv_request_not_found',
      path: `/v1/spv-requests/${created.spvRequestSlug}`,
    });
    const malformed = await env.client.spvRequests.get('bad slug!').catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(UnprocessableEntityError);
    expect((malformed as UnprocessableEntityError).issues[0]?.loc).toEqual(['path', 'slug']);
    expect(env.fake.requests.at(-1)?.path).toBe('/v1/spv-requests/bad%20slug!');
    const before = env.fake.requests.length;
    await expect(env.client.spvRequests.get('')).rejects.toBeInstanceOf(InputValidationError);
    await expect(env.client.spvRequests.cancel('')).rejects.toThrow(/slug: Required/);
    await expect(env.client.spvRequests.get('..')).rejects.toThrow(/slug: Must not be "\." or "\.\."/);
    await expect(env.client.spvRequests.get('.')).rejects.toBeInstanceOf(InputValidationError);
    // A plain-JS caller's number or undefined is refused by name too, not sent as "/v1/spv-requests/42".
    await expect(env.client.spvRequests.get(42 as unknown as string)).rejects.toThrow(/slug/);
    await expect(env.client.spvRequests.get(undefined as unknown as string)).rejects.toBeInstanceOf(
      InputValidationError,
    );
    expect(env.fake.requests).toHaveLength(before);
    const stranger = await api.partner(env, { wrongKey: true });
    await expect(stranger.client.spvRequests.get(created.spvRequestSlug)).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it('cancel moves a pending request to cancelled; a terminal one is a 409; unknown is a 404', async () => {
    const env = await api.start();
    const body = await spvBody(env.client);
    const pending = await env.client.spvRequests.create(body);
    const cancelled = await env.client.spvRequests.cancel(pending.spvRequestSlug);
    expect(cancelled).toMatchObject({ status: 'cancelled', spvRequestSlug: pending.spvRequestSlug });
    expect(cancelled.cancelledAt).toBeTruthy();
    const again = await env.client.spvRequests.cancel(pending.spvRequestSlug).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ status: 409, code: 'spv_request_terminal', method: 'DELETE' });

    const approved = await env.client.spvRequests.create(body);
    env.fake.admin.approveSpvRequest(approved.spvRequestSlug);
    await expect(env.client.spvRequests.cancel(approved.spvRequestSlug)).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(env.client.spvRequests.cancel('spvr_missing')).rejects.toBeInstanceOf(NotFoundError);
    await expect(env.client.spvRequests.cancel('bad slug!')).rejects.toBeInstanceOf(UnprocessableEntityError);
    const stranger = await api.partner(env, { wrongKey: true });
    await expect(stranger.client.spvRequests.cancel(approved.spvRequestSlug)).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });
});
