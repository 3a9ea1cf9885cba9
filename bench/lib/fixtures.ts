import type { PartnerEquity } from '../../src/index.js';
import type { InvestorInput } from '../../src/schemas/investors.js';
import type { SpvRequestCreate } from '../../src/schemas/spv-requests.js';

/** The fake's own minimal valid SPV request body (its `spv-standard-minimal` sample). */
export async function spvBody(client: PartnerEquity): Promise<SpvRequestCreate> {
  const { latest } = await client.contracts.versions();
  const sample = await client.contracts.samples.get(latest, 'spv-standard-minimal');
  return sample.payload as SpvRequestCreate;
}

/** `count` valid investor rows with ids `${prefix}-0`, `${prefix}-1`, … */
export function investorRows(count: number, prefix: string): InvestorInput[] {
  return Array.from({ length: count }, (_, i) => ({
    partnerInvestorId: `${prefix}-${i}`,
    email: `investor.${prefix}.${i}@example.com`,
    firstName: 'Ada',
    lastName: `Investor ${i}`,
    dateOfBirth: '1985-02-28',
    countryOfResidence: 'DE',
  }));
}

/** `size` bytes that start like a PDF, so the SDK's sniffing and the fake accept them. */
export function pdfBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x2e);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'), 0);
  return bytes;
}
