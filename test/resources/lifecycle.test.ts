import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/core/errors/errors.js';
import { useFakeApi } from './fake-harness.js';
import { fileBytes } from './files.js';
import { investorRows, spvBody } from './fixtures.js';

const api = useFakeApi();

describe('a partner integration from SPV request to funding receipt', () => {
  it('runs the whole lifecycle against the fake', async () => {
    const { client, fake } = await api.start();

    // 1. Submit an SPV request and find it in the list.
    const request = await client.spvRequests.create(await spvBody(client), {
      idempotencyKey: 'deal-2025-001',
    });
    expect(request.status).toBe('pending-review');
    const pending = [];
    for await (const item of client.spvRequests.list({ status: 'pending-review' }))
      pending.push(item.spvRequestSlug);
    expect(pending).toEqual([request.spvRequestSlug]);

    // 2. The administrator approves it: the SPV and its share classes exist.
    fake.admin.approveSpvRequest(request.spvRequestSlug);
    const approved = await client.spvRequests.get(request.spvRequestSlug);
    expect(approved.status).toBe('approved');
    const spvSlug = approved.materialisedRefs?.vehicleSlug ?? '';
    const shareClassSlug = approved.feesAndCarry?.shareClasses[0]?.slug ?? '';
    const currency = fake.admin.snapshot().spvs[0]?.currency ?? '';
    await expect(client.spvRequests.cancel(request.spvRequestSlug)).rejects.toBeInstanceOf(ConflictError);

    // 3. Investors: one bad row among good ones, then a re-run of the same call.
    const rows = investorRows(4, 'crm');
    rows[2] = { ...rows[2]!, countryOfResidence: 'Germany' };
    const first = await client.investors.create(rows, { idempotencyKey: 'crm-export-1' });
    // Outcomes, not the server's status words (the spec does not list them; this test runs on both profiles).
    expect(first.results.map((r) => (r.error ? 'failed' : 'ok'))).toEqual(['ok', 'ok', 'failed', 'ok']);
    expect(first.failed[0]?.error).toMatchObject({ field: 'countryOfResidence', retryable: false });
    const personsAfterFirst = fake.admin.snapshot().persons.length;
    const rerun = await client.investors.create(rows, { idempotencyKey: 'crm-export-1' });
    expect(rerun.results.map((r) => r.servicePersonId)).toEqual(first.results.map((r) => r.servicePersonId));
    expect(fake.admin.snapshot().persons).toHaveLength(personsAfterFirst);

    // 4. Subscribe the three investors.
    const people = first.succeeded.map((r) => r.servicePersonId ?? '');
    const { succeeded: results } = await client.subscriptions.create(
      spvSlug,
      people.map((servicePersonId, i) => ({
        servicePersonId,
        shareClassSlug,
        lumpSum: { currency, value: `${(i + 1) * 10_000}.00` },
        partnerSubscriptionId: `crm-sub-${i}`,
      })),
    );
    expect(results.map((r) => r.personId)).toEqual(people);
    expect(new Set(results.map((r) => r.status)).size).toBe(1);

    // 5. The first investor: form, then receipt.
    const [alice, bob, carol] = people as [string, string, string];
    const receipt = { file: fileBytes('pdf'), amount: '10000.00', currency, wireReference: 'WIRE-1' };
    const form = await client.subscriptions.uploadSignedForm(spvSlug, alice, fileBytes('pdf'));
    expect(form.personId).toBe(alice);
    const funded = await client.subscriptions.uploadFundingReceipt(spvSlug, alice, receipt);
    expect(funded).toMatchObject({ personId: alice, amount: '10000.00', wireReference: 'WIRE-1' });

    // 6. The second: a receipt before the form is a 409.
    const early = await client.subscriptions
      .uploadFundingReceipt(spvSlug, bob, receipt)
      .catch((e: unknown) => e);
    expect(early).toBeInstanceOf(ConflictError);
    expect(early).toMatchObject({ status: 409 });

    // 7. The third: once the subscription is completed (terminal), uploads are 409s.
    fake.admin.completeSubscription(results[2]?.subscriptionSlug ?? '');
    const late = await client.subscriptions
      .uploadSignedForm(spvSlug, carol, fileBytes('pdf'))
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ConflictError);
    expect(late).toMatchObject({ status: 409 });

    // What the fake holds (its admin view is the same in both profiles).
    const statuses = Object.fromEntries(
      fake.admin.snapshot().subscriptions.map((s) => [s.personId, s.status]),
    );
    expect(statuses).toEqual({
      [alice]: 'funding-received',
      [bob]: 'awaiting-signed-form',
      [carol]: 'completed',
    });
  });
});
