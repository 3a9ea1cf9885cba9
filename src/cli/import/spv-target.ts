import { NotFoundError, type PartnerEquity } from '../../index.js';
import { ImportInputError } from './import-exit.js';
import type { ShareClass } from './value-formats.js';

/** The SPV a subscriptions import goes to, and its share classes when its request named them. */
export interface SpvTarget {
  spvSlug: string;
  shareClasses?: readonly ShareClass[] | undefined;
  /** One line saying how a request slug was read, for stderr. */
  note?: string | undefined;
}

/** `spvr_…`: the slug of an SPV request, which names its SPV only once approved. */
export function isSpvRequestSlug(slug: string): boolean {
  return slug.startsWith('spvr_');
}

/**
 * The SPV an `import subscriptions` argument names: an SPV slug as given, or an approved SPV request's
 * `materialisedRefs.vehicleSlug` (with its share classes). A request that is not approved, or not found,
 * is an {@link ImportInputError} saying so: nothing is sent.
 */
export async function resolveSpvTarget(client: PartnerEquity, slug: string): Promise<SpvTarget> {
  if (!isSpvRequestSlug(slug)) return { spvSlug: slug };
  let request: Awaited<ReturnType<PartnerEquity['spvRequests']['get']>>;
  try {
    request = await client.spvRequests.get(slug);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new ImportInputError(
        `SPV request ${slug} not found for this client: see partner-equity spv-requests list`,
      );
    }
    throw error;
  }
  const spvSlug = request.materialisedRefs?.vehicleSlug;
  if (request.status !== 'approved' || spvSlug == null) {
    throw new ImportInputError(
      `SPV request ${slug} is ${request.status}, not approved: it has no SPV to import into yet`,
    );
  }
  return {
    spvSlug,
    shareClasses: request.feesAndCarry?.shareClasses.map(({ slug: classSlug, name }) => ({
      slug: classSlug,
      name,
    })),
    note: `${slug} is approved: importing into its SPV ${spvSlug}`,
  };
}
