/** One request the fake answered, for assertions on what reached the server. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  status: number;
  /** Server time (epoch ms) when it arrived. */
  at: number;
  idempotencyKey?: string;
  /** True when the response was an idempotent replay. */
  replayed?: boolean;
  /** Set when an injected fault changed the outcome. */
  fault?: 'status' | 'delay' | 'drop-before' | 'drop-after';
}

/**
 * One call of the token endpoint. It holds the refresh token presented (test-only data) so a test can
 * assert that no refresh token was ever presented twice.
 */
export interface TokenRequestRecord {
  grantType: string;
  /** The refresh token presented, for the refresh grant. */
  refreshToken?: string;
  /** `sub` of the assertion, for the assertion grant (whether or not it verified). */
  clientId?: string;
  status: number;
  /** Error code when refused. */
  code?: string;
  at: number;
}
