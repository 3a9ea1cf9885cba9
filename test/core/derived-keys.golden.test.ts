import { describe, expect, it } from 'vitest';
import { idempotencyKeyOfJson } from '../../src/core/request/idempotency.js';
import { deriveIdempotencyKey } from '../../src/index.js';
import { useFakeApi } from '../resources/fake-harness.js';
import { approvedSpv, investorRows } from '../resources/fixtures.js';

// Derived idempotency keys are a promise to partners: a script re-run after an upgrade must send the very
// keys it sent before, or the API creates everything again. These values were taken from the SDK before the
// request path was rewritten (issue 25); a change here is a breaking change, never a test update.

const api = useFakeApi();
const sentKeys = (
  requests: { method: string; path: string; headers: Record<string, string> }[],
  path: string,
) => requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.headers['idempotency-key']);

describe('derived idempotency keys stay byte-identical across releases', () => {
  it('deriveIdempotencyKey gives the same key for the same namespace and payload', () => {
    expect(
      deriveIdempotencyKey('spv-request:2024-06-fund', {
        templateId: 'spv-standard',
        b: [1, { z: 1, a: 2 }],
      }),
    ).toMatchInlineSnapshot(`"gtsNt5kbFZesnRmNr7YyVBhjpj2rhE1L6pvVH5nJNys"`);
    expect(
      deriveIdempotencyKey('n', { emoji: '😀', nul: '\u0000', nested: { y: null, x: true } }),
    ).toMatchInlineSnapshot(`"WKRfBDGql6CWXXJl2R5aqX0nhZe7OPoUyGsIKwynBqQ"`);
    expect(deriveIdempotencyKey('n', 'plain string')).toMatchInlineSnapshot(
      `"Furdgco-TW75gcBHPvdbWSxDrau_4k1Rm7VdpLZiAZY"`,
    );
    expect(deriveIdempotencyKey('n', [3, 2, 1])).toMatchInlineSnapshot(
      `"0DEowNvv8L8H0YKfk4DsL7vGa3Sk0SC_a4NeLMldQEA"`,
    );
  });

  it('investors.create sends the same chunk keys for the same rows and key', async () => {
    const env = await api.start();
    const rows = investorRows(5, 'golden');
    // A row with a field the spec does not state, and one refused before sending (a hole in chunk 1).
    rows[1] = { ...rows[1]!, extra: { b: 2, a: [1, 'x'] } } as (typeof rows)[number];
    rows[2] = { ...rows[2]!, email: 'not-an-email' };
    const result = await env.client.investors.create(rows, { idempotencyKey: 'golden-run', chunkSize: 2 });
    const keys = result.chunks.map((chunk) => chunk.idempotencyKey);
    expect(keys).toMatchInlineSnapshot(`
      [
        "Lo-KnqL4m51d8_husFdrYIuzcxHicxmxwEH57iY3YNg",
        "ijja8IMpGNc2AGM-gX2LyZQz7K1a8WjJ9Qr0UF_JdDY",
        "l5IYJW63dFEYirZcgzxjC88L_iaorPD2K4pD768ex1k",
      ]
    `);
    expect(sentKeys(env.apiRequests(), '/v1/investors')).toEqual(keys);
  });

  it('a chunk split to fit a body cap: each piece keyed by the chunk and where it starts', async () => {
    // 4 rows (about 600 bytes) are over the cap; 2 fit.
    const env = await api.start({ fake: { maxBodyBytes: 400 } });
    const rows = investorRows(4, 'golden-split');
    const result = await env.client.investors.create(rows, { idempotencyKey: 'golden-split', chunkSize: 4 });
    const pieces = result.chunks.filter((chunk) => chunk.part !== undefined);
    expect(pieces.map((chunk) => [chunk.part, chunk.rows, chunk.error])).toEqual([
      ['0', 2, undefined],
      ['1', 2, undefined],
    ]);
    const keys = pieces.map((chunk) => chunk.idempotencyKey);
    expect(keys).toMatchInlineSnapshot(`
      [
        "-d77XColIyPYUWnM5FbNjPv_1vQ-_4HlYGJWa1PD424",
        "fuZVCcBbPqpv079rbUcVXYxFlGn8o36KkEQ4ziU6MXI",
      ]
    `);
    // Split for its bytes: the first piece keeps the chunk's key, the next one is keyed by where it starts
    // (row 2), so a re-run that meets another cap finds the key holding another size (409), never a new key.
    const chunkKey = deriveIdempotencyKey('golden-split-0', rows);
    expect(keys).toEqual([chunkKey, idempotencyKeyOfJson(`${chunkKey}@2`, '')]);
    expect(sentKeys(env.apiRequests(), '/v1/investors').slice(1)).toEqual(keys);
  });

  it('a chunk split for its number of rows: each piece keyed by its place and its rows', async () => {
    // The service itself refused 4 rows (it may have kept that answer under the chunk's key): no piece
    // reuses the chunk's key.
    const env = await api.start({ fake: { maxInvestorRows: 2 } });
    const rows = investorRows(4, 'golden-rows');
    const result = await env.client.investors.create(rows, { idempotencyKey: 'golden-rows', chunkSize: 4 });
    const keys = result.chunks.filter((chunk) => chunk.part !== undefined).map((c) => c.idempotencyKey);
    expect(keys).toEqual([
      deriveIdempotencyKey('golden-rows-0/0', rows.slice(0, 2)),
      deriveIdempotencyKey('golden-rows-0/1', rows.slice(2)),
    ]);
    expect(sentKeys(env.apiRequests(), '/v1/investors')).toEqual([
      deriveIdempotencyKey('golden-rows-0', rows),
      ...keys,
    ]);
  });

  it('subscriptions.create sends the same chunk keys for the same rows and key', async () => {
    const env = await api.start();
    const spv = await approvedSpv(env);
    const { results } = await env.client.investors.create(investorRows(3, 'golden-sub'));
    const subscriptions = results.map((row, i) => ({
      servicePersonId: row.servicePersonId ?? '',
      shareClassSlug: spv.shareClassSlug,
      lumpSum: { currency: spv.currency, value: `${1000 + i}.50` },
    }));
    const created = await env.client.subscriptions.create(spv.spvSlug, subscriptions, {
      idempotencyKey: 'golden-subs',
      chunkSize: 2,
    });
    const keys = created.chunks.map((chunk) => chunk.idempotencyKey);
    // Person ids are the fake's, made afresh per run: the keys are pinned through what they hash.
    expect(keys.map((key) => key.replace(/^.{43}$/, '<43>'))).toEqual(['<43>', '<43>']);
    expect(keys).toEqual([
      deriveIdempotencyKey('golden-subs-0', subscriptions.slice(0, 2)),
      deriveIdempotencyKey('golden-subs-1', subscriptions.slice(2)),
    ]);
    expect(sentKeys(env.apiRequests(), `/v1/spvs/${spv.spvSlug}/subscriptions`)).toEqual(keys);
  });
});
