/**
 * The auth hook the request pipeline calls for routes that need a bearer token (see `Operation.auth`).
 * The token manager implements it; the pipeline never learns how tokens are obtained.
 */
export interface Authenticator {
  /** A currently valid access token. Concurrent callers may share one exchange. */
  getToken(signal?: AbortSignal): Promise<string>;
  /**
   * Optional fast path: the token `getToken` would resolve with right now, when it needs no waiting; else
   * `undefined` (the pipeline then awaits `getToken`). Saves the promise round trips on nearly every call.
   */
  currentToken?(): string | undefined;
  /**
   * Called once per call when the API answered 401 to `failedToken`. Resolve `true` when a different,
   * fresh token is now available (the pipeline then retries the call once); `false` to surface the 401.
   */
  onUnauthorized(failedToken: string, signal?: AbortSignal): Promise<boolean>;
}
