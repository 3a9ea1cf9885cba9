import type { APIPromise } from '../../src/core/request/api-promise.js';
import type { RequestOptions } from '../../src/core/request/request-options.js';
import { approvedSpv, investorRow, pdf, person, type ReliabilityEnv, spvBody } from './fake-env.js';

/** One partner write, set up on a fresh fake, then sent once under a fault. */
export interface WriteCase {
  name: string;
  method: 'POST' | 'DELETE';
  /** The route the fault is injected on (the write's own route only: setup calls are unaffected). */
  path: RegExp;
  /** Does the write's prerequisites without faults; returns what `send` and `held` need. */
  prepare(env: ReliabilityEnv): Promise<Record<string, string>>;
  /** The call under test. */
  send(env: ReliabilityEnv, ctx: Record<string, string>, options: RequestOptions): APIPromise<unknown>;
  /** How many of the write's resources the fake holds afterwards. */
  held(env: ReliabilityEnv, ctx: Record<string, string>): number;
  /** Whether the SDK retries it (keyed POSTs, uploads included, and DELETE: yes). */
  retried: boolean;
  /** Why this write survives (or cannot survive) faults: printed beside its row of the matrix. */
  why: string;
}

const subscriptionOf = (env: ReliabilityEnv, ctx: Record<string, string>) =>
  env.fake.admin
    .snapshot()
    .subscriptions.filter((s) => s.spvSlug === ctx['spvSlug'] && s.personId === ctx['personId']);

async function subscribed(env: ReliabilityEnv): Promise<Record<string, string>> {
  const spv = await approvedSpv(env);
  const personId = await person(env, 'inv-subscribed');
  await env.client.subscriptions.create(spv.spvSlug, [
    {
      servicePersonId: personId,
      shareClassSlug: spv.shareClassSlug,
      lumpSum: { currency: spv.currency, value: '25000.00' },
    },
  ]);
  return { ...spv, personId };
}

export const WRITES: WriteCase[] = [
  {
    name: 'spvRequests.create',
    method: 'POST',
    retried: true,
    path: /^\/v1\/spv-requests$/,
    prepare: async (env) => ({ body: JSON.stringify(await spvBody(env.client)) }),
    send: (env, ctx, options) => env.client.spvRequests.create(JSON.parse(ctx['body'] ?? '{}'), options),
    held: (env) => env.fake.admin.snapshot().spvRequests.length,
    why: 'Idempotency-Key generated once per call and resent on every retry: a processed attempt is replayed, not repeated',
  },
  {
    name: 'investors.create',
    method: 'POST',
    retried: true,
    path: /^\/v1\/investors$/,
    prepare: async () => ({}),
    send: (env, _ctx, options) => env.client.investors.create([investorRow('inv-matrix')], options),
    held: (env) =>
      env.fake.admin.snapshot().persons.filter((p) => p.partnerInvestorId === 'inv-matrix').length,
    why: 'one derived Idempotency-Key per chunk, reused on retries (and partnerInvestorId dedupes rows)',
  },
  {
    name: 'subscriptions.create',
    method: 'POST',
    retried: true,
    path: /^\/v1\/spvs\/[^/]+\/subscriptions$/,
    prepare: async (env) => {
      const spv = await approvedSpv(env);
      return { ...spv, personId: await person(env, 'inv-matrix') };
    },
    send: (env, ctx, options) =>
      env.client.subscriptions.create(
        ctx['spvSlug'] ?? '',
        [
          {
            servicePersonId: ctx['personId'] ?? '',
            shareClassSlug: ctx['shareClassSlug'] ?? '',
            lumpSum: { currency: ctx['currency'] ?? '', value: '25000.00' },
          },
        ],
        options,
      ),
    held: (env, ctx) => subscriptionOf(env, ctx).length,
    why: 'Idempotency-Key generated once per call and resent on every retry',
  },
  {
    name: 'subscriptions.uploadSignedForm',
    method: 'POST',
    retried: true,
    path: /\/forms$/,
    prepare: subscribed,
    send: (env, ctx, options) =>
      env.client.subscriptions.uploadSignedForm(ctx['spvSlug'] ?? '', ctx['personId'] ?? '', pdf(), options),
    held: (env, ctx) => subscriptionOf(env, ctx).filter((s) => s.form !== undefined).length,
    why: 'the spec lists no Idempotency-Key for uploads, but the SDK sends one (generated once per call) and retries with it: the fake replays a processed attempt; a server that ignores the key would replace the form in its single slot, still one on record',
  },
  {
    name: 'subscriptions.uploadFundingReceipt',
    method: 'POST',
    retried: true,
    path: /\/fundings$/,
    prepare: async (env) => {
      const ctx = await subscribed(env);
      await env.client.subscriptions.uploadSignedForm(ctx['spvSlug'] ?? '', ctx['personId'] ?? '', pdf());
      return ctx;
    },
    send: (env, ctx, options) =>
      env.client.subscriptions.uploadFundingReceipt(
        ctx['spvSlug'] ?? '',
        ctx['personId'] ?? '',
        { file: pdf(), amount: '25000.00', currency: ctx['currency'] ?? '', wireReference: 'WIRE-2025-0001' },
        options,
      ),
    held: (env, ctx) => subscriptionOf(env, ctx).filter((s) => s.funding !== undefined).length,
    why: 'as the signed form: keyed and retried; a processed attempt is replayed, not stored twice',
  },
  {
    name: 'spvRequests.cancel',
    method: 'DELETE',
    retried: true,
    path: /^\/v1\/spv-requests\/[^/]+$/,
    prepare: async (env) => ({
      slug: (await env.client.spvRequests.create(await spvBody(env.client))).spvRequestSlug,
    }),
    send: (env, ctx, options) => env.client.spvRequests.cancel(ctx['slug'] ?? '', options),
    held: (env) => env.fake.admin.snapshot().spvRequests.filter((r) => r.status === 'cancelled').length,
    why: 'DELETE is retried; a 409 on a retry means an earlier attempt cancelled it and lost its answer, so the SDK reads the request back and resolves with it',
  },
];
