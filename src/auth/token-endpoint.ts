import type { TokenResponse } from './token-response.js';

/** What one token-endpoint POST returned. */
export interface TokenExchangeResult {
  token: TokenResponse;
  /** The response's `Date` header in epoch milliseconds, when present and readable. */
  serverDate?: number | undefined;
}

/**
 * One POST to `/v1/oauth2/tokens` with a form body, with no retry of its own: the token manager decides what
 * may be retried (a JWT grant, each time with a new assertion) and what may not (a refresh grant, whose token
 * is single-use). Rejects with the SDK's errors (`APIError` carrying `status` and `headers`,
 * `APIConnectionError`, …).
 */
export type TokenEndpoint = (
  form: Record<string, string>,
  signal?: AbortSignal,
  /** Requests the exchange sent already (its earlier attempts): counted in the error's `attempts`. */
  sent?: number,
) => Promise<TokenExchangeResult>;

/** Reads an HTTP `Date` header into epoch milliseconds. */
export function parseHttpDate(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}
