import { createContext, Script } from 'node:vm';
import { checkReachable, type FaultRoute } from './fault-routes.js';

/**
 * Which requests a fault applies to; omitted fields match anything. Paths never include the query.
 *
 * - `path: '/v1/investors'` matches that path exactly (`/v1/spvs` matches no subscription route);
 * - `pathPrefix: '/v1/spvs/'` matches every path that starts with it;
 * - `path: /^\/v1\/spvs\/[^/]+\/subscriptions$/` matches what the RegExp finds.
 *
 * `inject` refuses an exact path or a prefix (with its method) that no route of the fake can ever match,
 * rather than let a test pass without its fault; a RegExp is taken as given. A RegExp with a quantified
 * group or a backreference runs under a time bound (1 s of real time): one that backtracks longer on a
 * path does not match it, so a pattern like `^/(a+)+$` cannot stop the fake answering.
 */
export interface FaultMatch {
  /** HTTP method, case-insensitive. */
  method?: string;
  /** The request path: equal to a string, or tested by a RegExp. */
  path?: string | RegExp;
  /** The start of the request path. */
  pathPrefix?: string;
}

/**
 * A fault for the next `times` matching requests. At least one of `status`, `delayMs` or `drop`.
 *
 * - `status` answers with that status and the spec's envelope (code `rate_limited`, `internal_error`,
 *   `service_unavailable`…) without processing the request.
 * - `retryAfter` adds `Retry-After` (seconds, or an HTTP date string as is).
 * - `delayMs` holds the response back for that many REAL milliseconds (keep it short), after processing;
 *   `Infinity` holds it until the client gives up or the fake closes. Real time, because the point is to
 *   outlast the client's own timeout, which runs on real timers.
 * - `drop: 'before'` loses the request unprocessed; `drop: 'after'` processes it (state changes, events
 *   fire, the idempotency key is stored) and then loses the response. Over `fake.listen()` the socket is
 *   destroyed; under MSW the fetch fails with a network error (`Response.error()`).
 */
export interface FaultSpec {
  match?: FaultMatch;
  /** @default 1 */
  times?: number;
  status?: number;
  retryAfter?: number | string;
  delayMs?: number;
  drop?: 'before' | 'after';
}

/** A live fault; `hits` counts the requests it has affected. */
export interface InjectedFault {
  readonly hits: number;
  readonly remaining: number;
  /** Stops it early. */
  remove(): void;
}

/** A fault that has not fired as often as it was asked to, as {@link FaultInjector.pending} lists it. */
export interface PendingFault {
  /** Its number, for `DELETE /__admin/faults/{id}`. */
  id: number;
  /** `POST /v1/investors 503 x2`, or `investor row inv-7 x1`. */
  description: string;
  /** The spec as injected; absent for investor row faults. */
  spec?: FaultSpec;
  hits: number;
  remaining: number;
}

/** Invalid fault specs throw at once rather than silently never matching. */
export class FaultInjector {
  #faults: Array<{ id: number; spec: FaultSpec; remaining: number; hits: number }> = [];
  #rowFaults: Array<{ id: number; partnerInvestorId: string | undefined; remaining: number; hits: number }> =
    [];
  #nextId = 1;
  readonly #routes: readonly FaultRoute[] | undefined;

  /** `routes`: the fake's route table; a match none of them can ever meet is refused. */
  constructor(routes?: readonly FaultRoute[]) {
    this.#routes = routes;
  }

  /**
   * Makes the next `times` investor rows (optionally only those with this `partnerInvestorId`) fail with
   * the retryable row error `temporarily_unavailable`, inside an otherwise successful 200.
   * @example
   * ```ts
   * fake.faults.failInvestorRows({ partnerInvestorId: 'inv-7' });
   * ```
   */
  failInvestorRows(options: { partnerInvestorId?: string; times?: number } = {}): void {
    const times = options.times ?? 1;
    if (!(times >= 1)) throw new RangeError('faults.failInvestorRows: times must be >= 1');
    this.#rowFaults.push({
      id: this.#nextId++,
      partnerInvestorId: options.partnerInvestorId,
      remaining: times,
      hits: 0,
    });
  }

  /** Consumes a row fault for this row, if one applies. @internal */
  takeRowFault(partnerInvestorId: string): boolean {
    const fault = this.#rowFaults.find(
      (f) => f.partnerInvestorId === undefined || f.partnerInvestorId === partnerInvestorId,
    );
    if (fault === undefined) return false;
    fault.hits += 1;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#rowFaults = this.#rowFaults.filter((f) => f !== fault);
    return true;
  }

  /**
   * Adds a fault.
   * @example
   * ```ts
   * fake.faults.inject({ match: { method: 'POST', path: '/v1/investors' }, status: 503, retryAfter: 1 });
   * fake.faults.inject({ match: { path: /^\/v1\/spv-requests/ }, drop: 'after' });
   * ```
   */
  inject(spec: FaultSpec): InjectedFault {
    const times = spec.times ?? 1;
    if (!(times >= 1)) throw new RangeError('faults.inject: times must be >= 1');
    if (spec.status === undefined && spec.delayMs === undefined && spec.drop === undefined) {
      throw new TypeError('faults.inject: give a status, a delayMs or a drop');
    }
    if (
      spec.status !== undefined &&
      !(Number.isInteger(spec.status) && spec.status >= 400 && spec.status <= 599)
    ) {
      throw new RangeError('faults.inject: status must be an integer 400-599');
    }
    if (spec.delayMs !== undefined && !(spec.delayMs >= 0))
      throw new RangeError('faults.inject: delayMs >= 0');
    if (spec.match?.path !== undefined && spec.match.pathPrefix !== undefined) {
      throw new TypeError('faults.inject: give match.path or match.pathPrefix, not both');
    }
    if (this.#routes !== undefined) checkReachable(spec.match, this.#routes);
    const entry = { id: this.#nextId++, spec, remaining: times, hits: 0 };
    this.#faults.push(entry);
    return {
      get hits() {
        return entry.hits;
      },
      get remaining() {
        return entry.remaining;
      },
      remove: () => {
        this.#faults = this.#faults.filter((f) => f !== entry);
      },
    };
  }

  /**
   * The faults that have not yet fired as often as asked, oldest first: at the end of a test, an empty list
   * says every injected fault happened.
   * @example
   * ```ts
   * afterEach(() => expect(fake.faults.pending()).toEqual([]));
   * ```
   */
  pending(): PendingFault[] {
    return [
      ...this.#faults.map(({ id, spec, hits, remaining }) => ({
        id,
        description: describeFault(spec, remaining),
        spec,
        hits,
        remaining,
      })),
      ...this.#rowFaults.map(({ id, partnerInvestorId, hits, remaining }) => ({
        id,
        description: `investor row ${partnerInvestorId ?? '(any)'} x${remaining}`,
        hits,
        remaining,
      })),
    ].sort((a, b) => a.id - b.id);
  }

  /** Removes the pending fault with this {@link PendingFault.id}; whether there was one. */
  remove(id: number): boolean {
    const before = this.#faults.length + this.#rowFaults.length;
    this.#faults = this.#faults.filter((f) => f.id !== id);
    this.#rowFaults = this.#rowFaults.filter((f) => f.id !== id);
    return this.#faults.length + this.#rowFaults.length < before;
  }

  /** Removes every fault. */
  clear(): void {
    this.#faults = [];
    this.#rowFaults = [];
  }

  /** The first fault matching this request, consumed by one. @internal */
  take(method: string, path: string): FaultSpec | undefined {
    const entry = this.#faults.find(({ spec }) => matches(spec.match, method, path));
    if (entry === undefined) return undefined;
    entry.hits += 1;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.#faults = this.#faults.filter((f) => f !== entry);
    return entry.spec;
  }
}

function matches(match: FaultMatch | undefined, method: string, path: string): boolean {
  if (match?.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match?.pathPrefix !== undefined) return path.startsWith(match.pathPrefix);
  if (match?.path === undefined) return true;
  if (typeof match.path === 'string') return match.path === path;
  return testWithin(match.path, path);
}

/** How long a fault's RegExp may run on one path (real time) before it counts as no match. */
const PATTERN_TIMEOUT_MS = 1000;

const patternTest = new Script('pattern.lastIndex = 0; pattern.test(path)');

// A quantified group (`(a+)+`, `(a|aa)*`) or a backreference: what lets a RegExp backtrack exponentially.
const mayBacktrack = /\)[*+?{]|\\[1-9]|\\k</;

// A pattern comes from a test, the mock's --fault or its admin API. One that may backtrack runs under vm's
// timeout, which interrupts a catastrophic backtrack as nothing else in JavaScript can; the rest run as is,
// so no thread scheduling on a busy machine can make a plain pattern miss.
function testWithin(pattern: RegExp, path: string): boolean {
  if (!mayBacktrack.test(pattern.source)) {
    pattern.lastIndex = 0;
    return pattern.test(path);
  }
  try {
    return (
      patternTest.runInContext(createContext({ pattern, path }), { timeout: PATTERN_TIMEOUT_MS }) === true
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return false;
    throw error;
  }
}

/** `POST /v1/investors 503 x2`: the fault as `--fault` writes it. */
export function describeFault(spec: FaultSpec, remaining = spec.times ?? 1): string {
  const match = spec.match;
  const path =
    match?.pathPrefix !== undefined
      ? `${match.pathPrefix}*`
      : match?.path instanceof RegExp
        ? `re:${match.path.source}`
        : (match?.path ?? '*');
  return [
    match?.method?.toUpperCase(),
    path,
    spec.status,
    `x${remaining}`,
    spec.retryAfter === undefined ? undefined : `retry-after=${spec.retryAfter}`,
    spec.delayMs === undefined ? undefined : `delay=${spec.delayMs}`,
    spec.drop === undefined ? undefined : `drop=${spec.drop}`,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
}
