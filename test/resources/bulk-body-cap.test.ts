import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import { APIUserAbortError } from '../../src/core/errors/errors.js';
import type { SubscriptionInput } from '../../src/schemas/subscriptions.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { approvedSpv, investorRows } from './fixtures.js';

// A proxy in front of the service answers JSON bodies over 64 KiB with 413 and an HTML page: 500 investor
// rows (about 85 KB) do not fit, 250 do.
const CAP = 64 * 1024;
const TOTAL = 3000;
const api = useFakeApi();

const posts = (env: FakeEnv, path: string) =>
  env.fake.requests.filter((r) => r.method === 'POST' && r.path === path);

/** A client of the same partner with no memory of earlier calls: a new process. */
function freshClient(env: FakeEnv, options: Partial<ClientOptions> = {}): PartnerEquity {
  const { baseUrl, clientId, issuer, privateKey } = env.credentials;
  return new PartnerEquity({
    baseUrl,
    clientId,
    issuer,
    privateKey,
    clock: env.fake.clock,
    logLevel: 'off',
    ...options,
  });
}

function warnings(): { lines: string[]; logger: ClientOptions['logger'] } {
  const lines: string[] = [];
  const ignore = () => {};
  return { lines, logger: { debug: ignore, info: ignore, error: ignore, warn: (line) => lines.push(line) } };
}

function subscriptionRows(
  spv: { shareClassSlug: string; currency: string },
  personIds: string[],
): SubscriptionInput[] {
  return personIds.map((servicePersonId, i) => ({
    servicePersonId,
    shareClassSlug: spv.shareClassSlug,
    lumpSum: { currency: spv.currency, value: `${1000 + i}.00` },
    partnerSubscriptionId: `subscription-${String(i).padStart(6, '0')}-of-the-autumn-closing`,
  }));
}

describe('bulk chunks behind a 64 KiB body cap', () => {
  it('3,000 investors and then their 3,000 subscriptions: chunks split to fit, every row created once', async () => {
    const env = await api.start({ fake: { maxBodyBytes: CAP } });
    const warned = warnings();
    const client = env.client.withOptions({ logger: warned.logger, logLevel: 'warn' });
    const spv = await approvedSpv(env);

    const people = await client.investors.create(investorRows(TOTAL, 'cap'), {
      idempotencyKey: 'cap-people',
    });
    expect(people.succeeded).toHaveLength(TOTAL);
    const investorPosts = posts(env, '/v1/investors');
    // The chunks sent before the first refusal was read (at most `concurrency`, 4) are refused; the client
    // remembers the refused size and splits later (larger) chunks before sending them.
    const refused = investorPosts.filter((r) => r.status === 413).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(4);
    expect(investorPosts.filter((r) => r.status === 201 || r.status === 200)).toHaveLength(2 * (TOTAL / 500));
    expect(people.chunks.filter((c) => c.split).map((c) => c.status)).toEqual(
      investorPosts.filter((r) => r.status === 413).map(() => 413),
    );
    const pieces = people.chunks.filter((c) => c.part !== undefined);
    expect(pieces).toHaveLength(2 * (TOTAL / 500));
    expect(pieces.slice(0, 2).map((c) => [c.index, c.part, c.rows, c.fittedRows])).toEqual([
      [0, '0', 250, 250],
      [0, '1', 250, 250],
    ]);
    expect(new Set(pieces.map((c) => c.idempotencyKey)).size).toBe(pieces.length);

    const subscriptions = subscriptionRows(
      spv,
      people.succeeded.map((p) => p.servicePersonId),
    );
    const subscribed = await client.subscriptions.create(spv.spvSlug, subscriptions, {
      idempotencyKey: 'cap-subs',
    });
    expect(subscribed.succeeded).toHaveLength(TOTAL);
    expect(posts(env, `/v1/spvs/${spv.spvSlug}/subscriptions`).some((r) => r.status === 413)).toBe(true);

    const held = env.fake.admin.snapshot();
    expect(held.persons).toHaveLength(TOTAL);
    expect(new Set(held.persons.map((p) => p.partnerInvestorId)).size).toBe(TOTAL);
    expect(held.subscriptions).toHaveLength(TOTAL);
    expect(new Set(held.subscriptions.map((s) => s.personId)).size).toBe(TOTAL);
    // One warning per call, naming the refused size and the size that worked.
    expect(warned.lines).toHaveLength(2);
    expect(warned.lines[0]).toMatch(
      /^investors\.create: the service refused bodies of \d+ bytes as too large; .*250 rows per request worked/,
    );

    // Remembered by the client and its derived clients: a later call sends nothing that would be refused.
    const before = env.fake.requests.length;
    await env.client.investors.create(investorRows(1000, 'later'));
    expect(env.fake.requests.slice(before).filter((r) => r.status === 413)).toEqual([]);
  });

  it('a re-run after a crash, from a client that learned nothing yet, replays the split chunks: nothing twice', async () => {
    const env = await api.start({ fake: { maxBodyBytes: CAP } });
    const spv = await approvedSpv(env);
    const people = await env.client.investors.create(investorRows(TOTAL, 'crash'));
    const subs = subscriptionRows(
      spv,
      people.succeeded.map((p) => p.servicePersonId),
    );
    const crash = new AbortController();
    const first = await freshClient(env)
      .subscriptions.create(spv.spvSlug, subs, {
        idempotencyKey: 'crash-subs',
        signal: crash.signal,
        onProgress: ({ done }) => {
          if (done >= 1500) crash.abort(new Error('simulated crash'));
        },
      })
      .catch((error: unknown) => error);
    expect(first).toBeInstanceOf(APIUserAbortError);
    expect(env.fake.admin.snapshot().subscriptions.length).toBeGreaterThanOrEqual(1500);

    const rerun = await freshClient(env, { defaultHeaders: { 'x-run': 'rerun' } }).subscriptions.create(
      spv.spvSlug,
      subs,
      { idempotencyKey: 'crash-subs' },
    );
    expect(rerun.succeeded).toHaveLength(TOTAL);
    const held = env.fake.admin.snapshot().subscriptions;
    expect(held).toHaveLength(TOTAL);
    expect(new Set(held.map((s) => s.personId)).size).toBe(TOTAL);
    const replayed = env.fake.requests.filter((r) => r.headers['x-run'] === 'rerun' && r.replayed);
    expect(replayed.length).toBeGreaterThanOrEqual(6); // the crashed run's split pieces, keyed alike
  });

  it('a 422 saying the request has too many rows splits the chunk too', async () => {
    const env = await api.start({ fake: { maxInvestorRows: 100 } });
    const result = await env.client.investors.create(investorRows(500, 'rows'), { idempotencyKey: 'rows' });
    expect(result.succeeded).toHaveLength(500);
    expect(result.chunks.filter((c) => c.split).map((c) => [c.part ?? '', c.rows, c.status])).toEqual([
      ['', 500, 422],
      ['0', 250, 422],
      ['00', 125, 422],
    ]);
    expect(result.chunks.filter((c) => !c.split).map((c) => c.rows)).toEqual([
      63, 62, 63, 62, 63, 62, 63, 62,
    ]);
    expect(env.fake.admin.snapshot().persons).toHaveLength(500);
  });
});
