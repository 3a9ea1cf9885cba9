import { NotFoundError, type PartnerEquity } from '../../index.js';
import { ImportInputError } from './import-exit.js';
import type { ShareClass } from './value-formats.js';

/** The SPV a subscriptions import goes to, and what its request says of it, when read. */
export interface SpvTarget {
  spvSlug: string;
  shareClasses?: readonly ShareClass[] | undefined;
  /** The currency every subscription to it pays in (its request's `attributes.currency`). */
  currency?: string | undefined;
  /** One line saying how the SPV was read, for stderr. */
  note?: string | undefined;
}

/** `spvr_…`: the slug of an SPV request, which names its SPV only once approved. */
export function isSpvRequestSlug(slug: string): boolean {
  return slug.startsWith('spvr_');
}

type SpvRequestRead = Awaited<ReturnType<PartnerEquity['spvRequests']['get']>>;

/**
 * The SPV an `import subscriptions` argument names, read (a read only: nothing is written). An approved
 * SPV request's slug names its `materialisedRefs.vehicleSlug`; an SPV slug is looked up among the client's
 * approved requests (the spec has no route reading an SPV itself). Either way its currency and share classes
 * come with it. A request that is not approved, or not found, is an {@link ImportInputError}: nothing is
 * sent. An SPV slug no request names is used as given, unchecked (the service answers for it).
 */
export async function resolveSpvTarget(client: PartnerEquity, slug: string): Promise<SpvTarget> {
  if (!isSpvRequestSlug(slug)) {
    for await (const request of client.spvRequests.list({ status: 'approved' })) {
      if (request.materialisedRefs?.vehicleSlug !== slug) continue;
      return { ...described(request as SpvRequestRead, slug), note: undefined };
    }
    return {
      spvSlug: slug,
      note: `${slug}: no approved SPV request of this client names it, so its currency is not checked`,
    };
  }
  let request: SpvRequestRead;
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
  return { ...described(request, spvSlug), note: `${slug} is approved: importing into its SPV ${spvSlug}` };
}

function described(request: SpvRequestRead, spvSlug: string): SpvTarget {
  const currency = request.attributes?.['currency'];
  return {
    spvSlug,
    currency: typeof currency === 'string' ? currency.toUpperCase() : undefined,
    shareClasses: request.feesAndCarry?.shareClasses.map(({ slug, name }) => ({ slug, name })),
  };
}
