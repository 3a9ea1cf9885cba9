import { randomId } from '../ids.js';
import type { FakeServices } from '../services.js';
import type { SpvRecord } from './records.js';
import { approveSpvRequest } from './spv-request-lifecycle.js';

/** An approved SPV every registered client starts with (option `seed.spvs`). */
export interface FakeSeedSpv {
  /** ISO 4217 code every subscription to it pays in, e.g. `'EUR'`. */
  currency: string;
  /** Share class names. @default ['Class A'] */
  shareClasses?: readonly string[];
  /** @default `Rehearsal SPV <n> (<currency>)` */
  name?: string;
}

/** What a fake starts with for each client it registers. */
export interface FakeSeed {
  spvs?: readonly FakeSeedSpv[];
}

const CURRENCY = /^[A-Z]{3}$/;

/** Checks a seed where the fake is built, so a typo fails there rather than on a later call. */
export function checkSeed(seed: FakeSeed | undefined): FakeSeed | undefined {
  for (const spv of seed?.spvs ?? []) {
    if (!CURRENCY.test(spv.currency)) {
      throw new RangeError(`FakePartnerEquity: seed.spvs currency '${spv.currency}' is not like EUR`);
    }
    const names = spv.shareClasses ?? ['Class A'];
    const unique = new Set(names.map((name) => name.trim().toLowerCase()));
    if (names.length === 0 || unique.size !== names.length || unique.has('')) {
      throw new RangeError('FakePartnerEquity: seed.spvs shareClasses must be distinct, non-empty names');
    }
  }
  return seed;
}

/**
 * Gives a newly registered client the seed's SPVs: each an `spv-standard` request the client could have
 * sent, approved as a reviewer would (so it lists, reads and takes subscriptions like any other).
 */
export function seedSpvs(services: FakeServices, clientId: string, tenantSlug: string): SpvRecord[] {
  const spvs = services.settings.seed?.spvs ?? [];
  return spvs.map((spv, index) => {
    const now = services.now();
    const record = {
      seq: services.state.nextSeq(),
      slug: randomId('spvr'),
      clientId,
      tenantSlug,
      status: 'pending-review' as const,
      templateId: 'spv-standard',
      templateVersion: '2025-06',
      attributes: {
        name: spv.name ?? `Rehearsal SPV ${index + 1} (${spv.currency})`,
        currency: spv.currency,
        targetRaise: '10000000.00',
        shareClasses: (spv.shareClasses ?? ['Class A']).map((name) => ({
          name,
          managementFeePercent: '2',
          carryPercent: '20',
        })),
      },
      createdAt: now,
      updatedAt: now,
    };
    services.state.spvRequests.set(record.slug, record);
    const approved = approveSpvRequest(services, record.slug);
    return services.state.spvs.get(approved.materialisedRefs?.vehicleSlug ?? '') as SpvRecord;
  });
}
