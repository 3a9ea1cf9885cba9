import type { PartnerEquity } from '../../src/client.js';
import type { SpvRequestCreate } from '../../src/schemas/spv-requests.js';
import type { FakePartnerEquity } from '../../src/testing/index.js';

/**
 * A valid SPV request body for the fake (the content of its `spv-standard-minimal` sample: one share class),
 * written out: the shape of published samples is not part of the spec and differs between the fake's
 * profiles. `client` is taken for call-site compatibility and reads the contract versions, as a partner
 * would before submitting.
 */
export async function spvBody(client: PartnerEquity): Promise<SpvRequestCreate> {
  const { latest } = await client.contracts.versions();
  if (latest === undefined) throw new Error('the fake lists no contract version');
  return {
    templateId: 'spv-standard',
    attributes: {
      name: 'Acme Growth SPV I',
      currency: 'EUR',
      targetRaise: '2500000.00',
      shareClasses: [{ name: 'Class A', managementFeePercent: '2', carryPercent: '20' }],
    },
  };
}

/** Approves an SPV request on the fake: the SPV's slug, its first share class and its currency. */
export function approveSpv(fake: FakePartnerEquity, spvRequestSlug: string) {
  const approved = fake.admin.approveSpvRequest(spvRequestSlug);
  const spvSlug = approved.materialisedRefs?.vehicleSlug ?? '';
  const spv = fake.admin.snapshot().spvs.find((s) => s.slug === spvSlug);
  return {
    spvSlug,
    shareClassSlug: approved.feesAndCarry?.shareClasses[0]?.slug ?? '',
    currency: spv?.currency ?? '',
  };
}
