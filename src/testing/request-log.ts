/** One request the fake answered, for assertions on what reached the server. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The route that answered, as a template (`/v1/spvs/{spvSlug}/subscriptions`); absent when none matched. */
  route?: string;
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

/** How many requests the fake answered, in all, by status, and by route and status. */
export interface FakeRequestCounts {
  total: number;
  /** `{ "201": 40, "429": 3 }`. */
  byStatus: Record<string, number>;
  /**
   * `{ "POST /v1/investors/bulk": { "201": 8, "413": 1 } }`: by route template, or by path where no route
   * matched. A dropped connection counts under status `"0"` when it was dropped before an answer.
   */
  byRoute: Record<string, Record<string, number>>;
}

/** One request as the admin API lists it: no headers (they carry tokens). */
export type FakeRequestSummary = Omit<RecordedRequest, 'headers'>;

/** `GET /__admin/requests`: the counts, and the newest requests first. */
export interface FakeRequestReport extends FakeRequestCounts {
  requests: FakeRequestSummary[];
}

/** Counts `requests` in all, by status, and by route and status. */
export function countRequests(requests: readonly RecordedRequest[]): FakeRequestCounts {
  const byStatus: Record<string, number> = {};
  const byRoute: Record<string, Record<string, number>> = {};
  for (const request of requests) {
    const status = String(request.status);
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    const route = `${request.method} ${request.route ?? request.path}`;
    const counts = byRoute[route] ?? {};
    counts[status] = (counts[status] ?? 0) + 1;
    byRoute[route] = counts;
  }
  return { total: requests.length, byStatus, byRoute };
}

/** The counts, and the newest `limit` requests (newest first), without their headers. */
export function requestReport(requests: readonly RecordedRequest[], limit: number): FakeRequestReport {
  const newest = requests
    .slice(Math.max(0, requests.length - limit))
    .reverse()
    .map(({ headers: _, ...rest }) => rest);
  return { ...countRequests(requests), requests: newest };
}
