import type { InvestorInput } from '../../src/schemas/investors.js';

import { spvBody } from '../../test/helpers/spv-body.js';

export { spvBody };

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
