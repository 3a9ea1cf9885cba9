/** Told once when an {@link AttemptAbort} (or an `AbortSignal` it follows) is aborted. */
export interface AbortListener {
  handleEvent(): void;
}

/**
 * What aborts one attempt (caller cancellation, attempt timeout, deadline): the part of an `AbortController`
 * the pipeline needs, without its cost. Making an `AbortController` and adding and removing an `abort`
 * listener on its signal cost a few microseconds per request on Node 24, about as much as everything else
 * the SDK adds to a GET; this is one small object and a field. A real `AbortSignal` is made only when a
 * transport asks for {@link AttemptAbort.signal} (custom transports, `fetch`, Bun), and it follows this
 * object from then on.
 */
export class AttemptAbort {
  #aborted = false;
  #reason: unknown;
  #listener: AbortListener | undefined;
  #controller: AbortController | undefined;

  /** Whether {@link AttemptAbort.abort} was called. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** What it was aborted with (an `AbortError` `DOMException` when no reason was given). */
  get reason(): unknown {
    return this.#reason;
  }

  /** Aborts the attempt: the listener is told, and so is the signal if one was made. Later calls do nothing. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.#controller?.abort(this.#reason);
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.handleEvent();
  }

  /** An `AbortSignal` aborted with this attempt (made on first read; already aborted if this is). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Sets the one listener told on abort (the transport's response reader), or clears it with `undefined`. */
  listen(listener: AbortListener | undefined): void {
    this.#listener = listener;
  }
}
