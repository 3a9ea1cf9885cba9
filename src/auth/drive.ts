/** Steps of {@link drive}: `yield` a value or a promise, receive what it resolves to. */
export type Steps<T> = Generator<unknown, T, unknown>;

/**
 * Runs `steps` like an async function, except that a yielded value that is not a promise is handed back at
 * once, without a turn of the event loop. A store that answers synchronously (the in-memory one) then
 * adds no delay: the token request goes out in the same tick as the call that needed it.
 */
export function drive<T>(steps: Steps<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const step = (first: () => IteratorResult<unknown, T>): void => {
      let resume = first;
      for (;;) {
        let result: IteratorResult<unknown, T>;
        try {
          result = resume();
        } catch (error) {
          reject(error);
          return;
        }
        if (result.done) {
          resolve(result.value);
          return;
        }
        const value = result.value;
        if (isPromiseLike(value)) {
          value.then(
            (settled) => step(() => steps.next(settled)),
            (error: unknown) => step(() => steps.throw(error)),
          );
          return;
        }
        resume = () => steps.next(value);
      }
    };
    step(() => steps.next());
  });
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
