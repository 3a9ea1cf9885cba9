import type { PartnerEquity } from '../../src/client.js';
import type { SpvRequestCreate } from '../../src/schemas/spv-requests.js';

/** A valid SPV request body: the fake's published `spv-standard-minimal` sample (one share class). */
export async function spvBody(client: PartnerEquity): Promise<SpvRequestCreate> {
  const { latest } = await client.contracts.versions();
  if (latest === undefined) throw new Error('the fake lists no contract version');
  const sample = await client.contracts.samples.get(latest, 'spv-standard-minimal');
  const body = sample.payload;
  if (typeof body?.['templateId'] !== 'string') throw new Error('the sample has no request body');
  return body as unknown as SpvRequestCreate;
}
