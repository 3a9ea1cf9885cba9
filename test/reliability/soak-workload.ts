import type { PartnerEquity } from '../../src/client.js';
import { deriveIdempotencyKey } from '../../src/core/request/idempotency.js';
import type { SpvRequestCreate } from '../../src/schemas/spv-requests.js';
import type { FakePartnerEquity, FaultSpec } from '../../src/testing/index.js';
import { investorRow } from './fake-env.js';

/**
 * A bulk row that failed after the SDK's retries: the row form of a typed error, with its code. A retryable
 * `request_failed` is what a single call reports as APIConnectionError after the same retries.
 */
export class RowFailure extends Error {
  constructor(
    readonly code: string | undefined,
    readonly retryable: boolean | undefined,
  ) {
    super(`investor row failed: ${code} (retryable: ${retryable})`);
  }
}

/** A small seeded PRNG (mulberry32): the same seed gives the same calls and faults on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** What the soak asked for and what it got, to compare with what the fake holds at the end. */
export interface SoakLedger {
  /** partnerInvestorIds written at least once. */
  investors: Set<string>;
  /** Idempotency key → slug of each SPV request created. */
  spvRequests: Map<string, string>;
  /** Slugs cancelled. */
  cancelled: Set<string>;
  /** Caller-visible errors by class name (after the SDK's own retries). */
  errors: Map<string, number>;
  calls: number;
  faults: number;
}

export function emptyLedger(): SoakLedger {
  return {
    investors: new Set(),
    spvRequests: new Map(),
    cancelled: new Set(),
    errors: new Map(),
    calls: 0,
    faults: 0,
  };
}

const FAULTS: Omit<FaultSpec, 'match'>[] = [
  { status: 503 },
  { status: 502 },
  { status: 429, retryAfter: 1 },
  { drop: 'before' },
  { drop: 'after' },
];

/** One partner call, chosen by `random`: mostly reads, 15 % cheap writes, 0.25 % creates, a few cancels. */
export interface SoakCall {
  match: { method: string; path: string | RegExp };
  run(): Promise<unknown>;
  /** A write is re-run by the caller (same idempotency key) until it succeeds, as a partner's job would. */
  write: boolean;
}

export function nextCall(
  client: PartnerEquity,
  ledger: SoakLedger,
  random: () => number,
  body: SpvRequestCreate,
  index: number,
): SoakCall {
  const roll = random();
  const slugs = [...ledger.spvRequests.values()];
  const someSlug = slugs[Math.floor(random() * slugs.length)];
  if (roll < 0.0025 || someSlug === undefined) {
    const key = `soak-spv-${index}`;
    return {
      match: { method: 'POST', path: '/v1/spv-requests' },
      write: true,
      run: async () => {
        const created = await client.spvRequests.create(body, { idempotencyKey: key });
        ledger.spvRequests.set(key, created.spvRequestSlug);
      },
    };
  }
  if (roll < 0.15) {
    // A pool of 300 investors, each row's key derived from the row: a re-sent row is a replay, never a copy.
    const row = investorRow(`soak-inv-${Math.floor(random() * 300)}`);
    return {
      match: { method: 'POST', path: '/v1/investors' },
      write: true,
      run: async () => {
        const { failed } = await client.investors.create([row], {
          idempotencyKey: deriveIdempotencyKey('soak', row),
        });
        if (failed.length > 0) throw new RowFailure(failed[0]?.error.code, failed[0]?.error.retryable);
        ledger.investors.add(row.partnerInvestorId);
      },
    };
  }
  if (roll < 0.151 && !ledger.cancelled.has(someSlug)) {
    ledger.cancelled.add(someSlug); // claimed now, so no other worker cancels it too
    return {
      match: { method: 'DELETE', path: /^\/v1\/spv-requests\/[^/]+$/ },
      write: true,
      run: async () => {
        const cancelled = await client.spvRequests.cancel(someSlug);
        if (cancelled.status !== 'cancelled') throw new Error(`cancel answered ${cancelled.status}`);
      },
    };
  }
  // Reads: bearer routes mostly (a 401 can only show there), small answers so the soak stays quick.
  if (roll < 0.35) return read('GET', /^\/v1\/spv-requests\/[^/]+$/, () => client.spvRequests.get(someSlug));
  if (roll < 0.38) return read('GET', '/v1/spv-requests', () => client.spvRequests.list({ perPage: 2 }));
  if (roll < 0.9) return read('GET', '/v1/oauth2/info', () => client.oauth.info());
  return read('GET', '/public/hc', () => client.system.health());
}

function read(method: string, path: string | RegExp, run: () => PromiseLike<unknown>): SoakCall {
  return { match: { method, path }, write: false, run: async () => run() };
}

/** With probability `rate`, arms one fault for the next request matching `call`. */
export function maybeFault(
  fake: FakePartnerEquity,
  call: SoakCall,
  random: () => number,
  rate: number,
): boolean {
  if (random() >= rate) return false;
  const fault = FAULTS[Math.floor(random() * FAULTS.length)] ?? { status: 503 };
  fake.faults.inject({ match: call.match, times: 1, ...fault });
  return true;
}
