import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import type { InvestorInput } from '../../src/schemas/investors.js';
import type { SpvRequestCreate } from '../../src/schemas/spv-requests.js';
import { FakePartnerEquity, type FakePartnerEquityOptions } from '../../src/testing/index.js';
import { drivingClock } from '../helpers/driving-clock.js';

import { approveSpv, spvBody } from '../helpers/spv-body.js';

export { spvBody };

/** A fake API on a loopback port and one partner's client sharing its clock. */
export interface ReliabilityEnv {
  fake: FakePartnerEquity;
  client: PartnerEquity;
  clientId: string;
  /** The waits (ms) the client slept on the shared clock. */
  waits: number[];
  close(): Promise<void>;
}

/** Starts a fake and a client whose sleeps advance the fake's clock (no real waiting). */
export async function startEnv(
  options: { fake?: FakePartnerEquityOptions; client?: Partial<ClientOptions> } = {},
): Promise<ReliabilityEnv> {
  const fake = new FakePartnerEquity(options.fake);
  await fake.listen();
  const partner = await fake.createPartner();
  const clock = drivingClock(fake.clock);
  const client = new PartnerEquity({
    baseUrl: partner.baseUrl,
    clientId: partner.clientId,
    issuer: partner.issuer,
    privateKey: partner.privateKey,
    clock,
    logLevel: 'off',
    ...options.client,
  });
  return {
    fake,
    client,
    clientId: partner.clientId,
    waits: clock.waits,
    close: async () => {
      await client.close();
      await fake.close();
    },
  };
}

/** A valid investor row. */
export function investorRow(id: string): InvestorInput {
  return {
    partnerInvestorId: id,
    email: `${id}@example.com`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1985-02-28',
    countryOfResidence: 'DE',
  };
}

/** An approved SPV: slug, first share class and currency. */
export async function approvedSpv(env: ReliabilityEnv, body?: SpvRequestCreate) {
  const request = await env.client.spvRequests.create(body ?? (await spvBody(env.client)));
  return approveSpv(env.fake, request.spvRequestSlug);
}

/** An investor of the partner, by `partnerInvestorId`. */
export async function person(env: ReliabilityEnv, id: string): Promise<string> {
  const { results } = await env.client.investors.create([investorRow(id)]);
  return results[0]?.servicePersonId ?? '';
}

/** `size` bytes of a PDF (magic bytes first), so the SDK and the fake accept it. */
export function pdf(size = 2048): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x2e);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'), 0);
  return bytes;
}
