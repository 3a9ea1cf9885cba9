/** Which requests a fault applies to; omitted fields match anything. */
export interface FaultMatch {
  /** HTTP method, case-insensitive. */
  method?: string;
  /** The request path (no query): equal to a string, or tested by a RegExp. */
  path?: string | RegExp;
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

/** Invalid fault specs throw at once rather than silently never matching. */
export class FaultInjector {
  #faults: Array<{ spec: FaultSpec; remaining: number; hits: number }> = [];
  #rowFaults: Array<{ partnerInvestorId: string | undefined; remaining: number }> = [];

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
    this.#rowFaults.push({ partnerInvestorId: options.partnerInvestorId, remaining: times });
  }

  /** Consumes a row fault for this row, if one applies. @internal */
  takeRowFault(partnerInvestorId: string): boolean {
    const fault = this.#rowFaults.find(
      (f) => f.partnerInvestorId === undefined || f.partnerInvestorId === partnerInvestorId,
    );
    if (fault === undefined) return false;
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
    const entry = { spec, remaining: times, hits: 0 };
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
  if (match?.path === undefined) return true;
  if (typeof match.path === 'string') return match.path === path;
  match.path.lastIndex = 0;
  return match.path.test(path);
}
