import type { InvestorInput } from '../../src/schemas/investors.js';
import { approveSpv, spvBody } from '../helpers/spv-body.js';
import type { FakeEnv } from './fake-harness.js';

export { spvBody };

/** `count` valid investor rows with ids `${prefix}-0`, `${prefix}-1`, … */
export function investorRows(count: number, prefix = 'inv'): InvestorInput[] {
  return Array.from({ length: count }, (_, i) => ({
    partnerInvestorId: `${prefix}-${i}`,
    email: `investor${i}@example.com`,
    firstName: 'Ada',
    lastName: `Investor ${i}`,
    dateOfBirth: '1985-02-28',
    countryOfResidence: 'DE',
  }));
}

/** An approved SPV of the env's partner: its slug, share class and currency. */
export async function approvedSpv(
  env: FakeEnv,
): Promise<{ spvSlug: string; shareClassSlug: string; currency: string }> {
  const request = await env.client.spvRequests.create(await spvBody(env.client));
  return approveSpv(env.fake, request.spvRequestSlug);
}

/** An approved SPV with one investor subscribed to it (awaiting the signed form). */
export async function subscribedInvestor(env: FakeEnv, id = 'inv-sub') {
  const spv = await approvedSpv(env);
  const { results } = await env.client.investors.create(investorRows(1, id));
  const personId = results[0]?.servicePersonId ?? '';
  const created = await env.client.subscriptions.create(spv.spvSlug, [
    {
      servicePersonId: personId,
      shareClassSlug: spv.shareClassSlug,
      lumpSum: { currency: spv.currency, value: '25000.00' },
    },
  ]);
  return { ...spv, personId, subscriptionSlug: created.succeeded[0]?.subscriptionSlug ?? '' };
}
