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
import type { SubscriptionInput } from '../../src/schemas/subscriptions.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { approvedSpv, investorRows } from './fixtures.js';

/** The error a resolved bulk call reports: the one that stopped it, else its first chunk's. */
const stoppedBy = (result: { error?: unknown; chunks: { error?: unknown }[] }) =>
  result.error ?? result.chunks.find((chunk) => chunk.error !== undefined)?.error;

const api = useFakeApi();

async function setup(env: FakeEnv) {
  const spv = await approvedSpv(env);
  const { results } = await env.client.investors.create(investorRows(2));
  const rows: SubscriptionInput[] = results.map((r, i) => ({
    servicePersonId: r.servicePersonId ?? '',
    shareClassSlug: spv.shareClassSlug,
    lumpSum: { currency: spv.currency, value: `${10_000 * (i + 1)}.50` },
    partnerSubscriptionId: `sub-${i}`,
  }));
  return { ...spv, rows };
}

describe('client.subscriptions.create', () => {
  it('subscribes investors with an Idempotency-Key; the same key replays', async () => {
    const env = await api.start();
    const { spvSlug, rows } = await setup(env);
    const { data, response } = await env.client.subscriptions.create(spvSlug, rows).withResponse();
    expect(response.status).toBe(201);
    expect(data.results).toMatchObject([
      { spvSlug, personId: rows[0]?.servicePersonId, partnerSubscriptionId: 'sub-0' },
      { spvSlug, personId: rows[1]?.servicePersonId },
    ]);
    // The spec does not show lumpSum's inner fields in results; the fake's default profile echoes the input.
    if (env.fake.profile === 'default') expect(data.results[0]).toMatchObject({ lumpSum: rows[0]?.lumpSum });
    const sent = env.apiRequests().at(-1);
    expect(sent?.path).toBe(`/v1/spvs/${spvSlug}/subscriptions`);
    expect(sent?.headers['idempotency-key']).toBe(data.chunks[0]?.idempotencyKey);

    const key = 'subs-batch-1';
    const first = await env.client.subscriptions.create(spvSlug, rows, { idempotencyKey: key });
    const replay = await env.client.subscriptions
      .create(spvSlug, rows, { idempotencyKey: key })
      .withResponse();
    expect(replay.data.results).toEqual(first.results);
    expect(replay.response.replayed).toBe(true);
    expect(env.apiRequests().at(-1)?.replayed).toBe(true);
    expect(env.fake.admin.snapshot().subscriptions).toHaveLength(2);
  });

  it('400 names each bad row value; 404 for an unknown SPV; 409 for a chunk key reused with another body', async () => {
    const env = await api.start();
    const { spvSlug, rows, currency } = await setup(env);
    const otherCurrency = currency === 'USD' ? 'EUR' : 'USD';
    const bad = rows.map((r) => ({ ...r, lumpSum: { ...r.lumpSum, currency: otherCurrency } }));
    const invalid = await env.client.subscriptions.create(spvSlug, bad).then(stoppedBy);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect((invalid as BadRequestError).validationErrors).toHaveLength(2);
    // Codes and attribute paths are the server's words (not shown by the spec): asserted for the default profile.
    if (env.fake.profile === 'default')
      expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    if (env.fake.profile === 'default')
      expect((invalid as BadRequestError).validationErrors).toEqual([
        {
          attribute: 'subscriptions[0].lumpSum.currency',
          code: 'currency_mismatch',
          message: expect.any(String),
        },
        {
          attribute: 'subscriptions[1].lumpSum.currency',
          code: 'currency_mismatch',
          message: expect.any(String),
        },
      ]);
    const missing = await env.client.subscriptions.create('spv_missing', rows).then(stoppedBy);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404 });

    // The call key names a batch: each chunk's key is derived from it and the chunk's rows, so a re-run
    // with other rows gets other keys. The API's 409 still comes through for a key reused by hand.
    await env.client.subscriptions.create(spvSlug, rows.slice(0, 1), {
      headers: { 'idempotency-key': 'k-1' },
    });
    const conflict = await env.client.subscriptions
      .create(spvSlug, rows.slice(1), { headers: { 'idempotency-key': 'k-1' } })
      .then(stoppedBy);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ status: 409 });
  });

  it('401, 403 and 422 surface typed', async () => {
    const env = await api.start();
    const { spvSlug, rows } = await setup(env);
    const stranger = await api.partner(env, { wrongKey: true });
    expect(await stranger.client.subscriptions.create(spvSlug, rows).then(stoppedBy)).toBeInstanceOf(
      AuthenticationError,
    );
    const unprovisioned = await api.partner(env, { provisioned: false });
    expect(await unprovisioned.client.subscriptions.create(spvSlug, rows).then(stoppedBy)).toBeInstanceOf(
      PermissionDeniedError,
    );
    const unprocessable = await env.client.subscriptions
      .create(spvSlug, rows, { headers: { 'Idempotency-Key': 'bad key' } })
      .then(stoppedBy);
    expect(unprocessable).toBeInstanceOf(UnprocessableEntityError);
  });

  it('refuses numbers as money, malformed currency codes and empty ids before sending, naming each', async () => {
    const env = await api.start();
    const before = env.fake.requests.length;
    const rows = [
      { servicePersonId: 'per_1', shareClassSlug: 'a', lumpSum: { currency: 'EUR', value: 25000 } },
      { servicePersonId: '', shareClassSlug: 'a', lumpSum: { currency: 'EURO', value: '1,000' } },
      // Well-formed, whatever the server thinks of them: no invented list of currencies or amount bounds.
      { servicePersonId: 'per_3', shareClassSlug: 'a', lumpSum: { currency: 'ZZZ', value: '0' } },
    ] as unknown as SubscriptionInput[];
    const error = await env.client.subscriptions.create('', rows).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues.map((i) => i.path)).toEqual([
      'spvSlug',
      'subscriptions.0.lumpSum.value',
      'subscriptions.1.servicePersonId',
      'subscriptions.1.lumpSum.currency',
      'subscriptions.1.lumpSum.value',
    ]);
    await expect(env.client.subscriptions.create('spv', [])).rejects.toThrow(/subscriptions/);
    expect(env.fake.requests).toHaveLength(before);
  });

  it('names a bad slug, bad rows, a bad key and bad bulk options in one error; nothing is sent', async () => {
    const env = await api.start();
    const before = env.fake.requests.length;
    const rows = [{ servicePersonId: '', shareClassSlug: 'a', lumpSum: { currency: 'EUR', value: 1 } }];
    const error = await env.client.subscriptions
      .create('', rows as unknown as SubscriptionInput[], { idempotencyKey: 'has spaces', chunkSize: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues.map((i) => i.path)).toEqual([
      'spvSlug',
      'subscriptions.0.servicePersonId',
      'subscriptions.0.lumpSum.value',
      'chunkSize',
      'idempotencyKey',
    ]);
    expect(env.fake.requests).toHaveLength(before);
  });
});
