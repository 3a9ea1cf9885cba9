import type { Dispatcher } from 'undici';
import { ResponseTooLargeError } from '../errors/errors.js';
import { AttemptAbort } from './attempt-abort.js';

/** undici's parsed response headers: lower-case names, repeated headers as arrays. */
export type RawHeaders = Record<string, string | string[] | undefined>;

/**
 * Makes the value a whole response resolves with: status, headers and the body decoded as UTF-8 (a leading
 * BOM dropped, as undici's `body.text()` does).
 */
export type MakeResponse<R> = (status: number, headers: RawHeaders, text: string) => R;

/**
 * Sends one request through `dispatcher.dispatch` and collects the whole response body, without the
 * `Readable` stream, async resource and body-mixin promises that `undici.request` + `body.text()` build
 * per request (the largest single cost the SDK added to a GET, by profile and A/B bench). `abort` (the
 * pipeline's {@link AttemptAbort}, or any `AbortSignal`) aborts the request at any point, as `request`'s
 * own `signal` does; a body over `limit` bytes (declared or counted) aborts it with
 * {@link ResponseTooLargeError}.
 */
export function dispatchRequest<R>(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  abort: AbortSignal | AttemptAbort,
  limit: number,
  make: MakeResponse<R>,
): Promise<R> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new CollectingHandler(resolve, reject, make, abort, limit));
  });
}

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestStart']>>[0];

// undici's handler protocol (onRequestStart … onResponseEnd / onResponseError), and the abort listener as
// `handleEvent` (of an AttemptAbort: a field set; of an AbortSignal: an event listener): one object per
// request, no closures.
class CollectingHandler<R> implements Dispatcher.DispatchHandler {
  readonly #resolve: (response: R) => void;
  readonly #reject: (error: unknown) => void;
  readonly #make: MakeResponse<R>;
  readonly #abort: AbortSignal | AttemptAbort;
  readonly #limit: number;
  #controller: Controller | undefined;
  // What the signal was aborted with (any value; undici hands it on as the rejection, as `request` does).
  #reason: Error | undefined;
  #status = 0;
  #headers: RawHeaders | undefined;
  // Most bodies arrive in one chunk: an array only from the second on (less garbage per request).
  #first: Buffer | undefined;
  #more: Buffer[] | undefined;
  #size = 0;
  #settled = false;

  constructor(
    resolve: (response: R) => void,
    reject: (error: unknown) => void,
    make: MakeResponse<R>,
    abort: AbortSignal | AttemptAbort,
    limit: number,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#make = make;
    this.#abort = abort;
    this.#limit = limit;
    if (abort.aborted) this.#reason = reasonOf(abort);
    else if (abort instanceof AttemptAbort) abort.listen(this);
    else abort.addEventListener('abort', this, { once: true });
  }

  /** The abort listener. */
  handleEvent(): void {
    this.#reason = reasonOf(this.#abort);
    this.#controller?.abort(this.#reason);
  }

  onRequestStart(controller: Controller): void {
    this.#controller = controller;
    if (this.#reason !== undefined) controller.abort(this.#reason);
  }

  onResponseStart(controller: Controller, status: number, headers: Record<string, string | string[]>): void {
    if (status < 200) return; // 1xx: the final response follows
    this.#status = status;
    this.#headers = headers;
    const declared = headers['content-length'];
    if (typeof declared === 'string' && Number(declared) > this.#limit) {
      controller.abort(new ResponseTooLargeError(this.#limit));
    }
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > this.#limit) controller.abort(new ResponseTooLargeError(this.#limit));
    else if (this.#first === undefined) this.#first = chunk;
    else if (this.#more === undefined) this.#more = [this.#first, chunk];
    else this.#more.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#finish()) {
      const body = this.#more === undefined ? this.#first : Buffer.concat(this.#more, this.#size);
      this.#resolve(this.#make(this.#status, this.#headers ?? {}, decode(body)));
    }
  }

  onResponseError(_controller: Controller | null, error: Error): void {
    if (this.#finish()) this.#reject(error);
  }

  #finish(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    const abort = this.#abort;
    if (abort instanceof AttemptAbort) abort.listen(undefined);
    else abort.removeEventListener('abort', this);
    return true;
  }
}

function reasonOf(abort: AbortSignal | AttemptAbort): Error {
  return (abort.reason ?? new DOMException('This operation was aborted', 'AbortError')) as Error;
}

function decode(bytes: Buffer | undefined): string {
  if (bytes === undefined || bytes.length === 0) return '';
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}
