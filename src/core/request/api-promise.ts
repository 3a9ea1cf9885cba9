/** What the raw HTTP response of a call looked like. */
export interface RawResponse {
  status: number;
  headers: Headers;
  /** From the `x-request-id` (or `request-id`) response header; quote it to the API's support. */
  requestId: string | undefined;
  /** HTTP requests sent for this call (1 + retries). */
  attempts: number;
  /** The `Idempotency-Key` sent with the call (the same on every attempt), if any. */
  idempotencyKey: string | undefined;
  /**
   * `true` when the server answered with `Idempotent-Replayed: true`: this key was used before and the
   * response is the first one's replay (nothing was created this time).
   */
  replayed: boolean;
}

/** A parsed value together with the response it came from. */
export interface WithResponse<T> {
  data: T;
  response: RawResponse;
}

/**
 * The promise every SDK method returns: `await` gives the parsed resource; `.withResponse()` also gives
 * the raw response (status, headers, request id, attempts, idempotency key).
 *
 * @example
 * ```ts
 * const { data, response } = await client.spvRequests.get(slug).withResponse();
 * console.log(data.status, response.requestId);
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<WithResponse<T>>;

  constructor(result: Promise<WithResponse<T>>) {
    // A placeholder base, resolved at once so it never reports an unhandled rejection: `then` reads `#result`.
    super((resolve) => resolve(undefined as T));
    this.#result = result;
  }

  /** `Promise`: what `.then()` and friends derive is a plain promise. */
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The parsed value and the raw response. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  // biome-ignore lint/suspicious/noThenProperty: an intentional thenable: `await` gives the parsed value.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // Straight from the result (one derived promise per `await`, not two): the value is `data`.
    return this.#result.then(
      (result) => (onfulfilled ? onfulfilled(result.data) : (result.data as unknown as R1)),
      onrejected,
    );
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}
