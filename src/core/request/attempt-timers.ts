/** What a due timer aborts: an `AbortController`, or the pipeline's lighter `AttemptAbort`. */
export interface Abortable {
  abort(): void;
}

/** An armed attempt timeout: {@link AttemptTimers.cancel} it once the attempt has settled. */
export interface AttemptTimer {
  /** `performance.now()` time at which the controller is aborted. */
  readonly dueAt: number;
  readonly controller: Abortable;
}

/**
 * Per-attempt timeouts on one shared timer instead of a `setTimeout`/`clearTimeout` pair per request.
 *
 * Attempts almost always settle long before their timeout, so the single timer is armed for the earliest
 * due time and rarely fires; when it does, it aborts only the controllers that are due and re-arms itself
 * for the next one. Precision is that of a plain `setTimeout` (the timer is armed for the exact due time,
 * not a coarse tick). While attempts are pending the timer keeps the process alive, like the per-attempt
 * timers did; with none pending it is unref'd, so an idle client never holds the process open.
 */
export class AttemptTimers {
  readonly #pending = new Set<AttemptTimer>();
  #handle: ReturnType<typeof setTimeout> | undefined;
  #armedFor = Number.POSITIVE_INFINITY;

  /** Aborts `controller` after `ms` milliseconds unless cancelled first. */
  arm(controller: Abortable, ms: number): AttemptTimer {
    const timer: AttemptTimer = { dueAt: performance.now() + ms, controller };
    if (this.#pending.size === 0) this.#handle?.ref();
    this.#pending.add(timer);
    if (timer.dueAt < this.#armedFor) this.#schedule(timer.dueAt);
    return timer;
  }

  /** Forgets `timer`; the shared timer is left armed and simply finds nothing due when it fires. */
  cancel(timer: AttemptTimer): void {
    this.#pending.delete(timer);
    if (this.#pending.size === 0) this.#handle?.unref();
  }

  #schedule(dueAt: number): void {
    if (this.#handle !== undefined) clearTimeout(this.#handle);
    this.#armedFor = dueAt;
    this.#handle = setTimeout(() => this.#fire(), Math.max(0, dueAt - performance.now()));
    if (this.#pending.size === 0) this.#handle.unref();
  }

  #fire(): void {
    this.#handle = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    const due: AttemptTimer[] = [];
    for (const timer of this.#pending) {
      // Node's timers run on millisecond loop time and may fire a fraction of a millisecond early.
      if (timer.dueAt <= now + 1) due.push(timer);
      else if (timer.dueAt < next) next = timer.dueAt;
    }
    for (const timer of due) this.#pending.delete(timer);
    if (next !== Number.POSITIVE_INFINITY) this.#schedule(next);
    for (const timer of due) timer.controller.abort();
  }
}

/** The process-wide timers every attempt uses (one `setTimeout` at a time, whatever the load). */
export const attemptTimers = new AttemptTimers();
