import type { FakePartnerCredentials } from '../../src/testing/index.js';

/** What the parent may ask the fake server process. */
export type ServerCommand =
  | { cmd: 'approveSpvRequest'; slug: string }
  | { cmd: 'counts' }
  | { cmd: 'clearLog' }
  | { cmd: 'close' };

/** An approved SPV as the bench needs it. */
export interface ApprovedSpv {
  spvSlug: string;
  shareClassSlug: string;
  currency: string;
}

/** Requests the fake has answered (since the last `clearLog`) and token endpoint calls (all). */
export interface ServerCounts {
  requests: number;
  tokenRequests: number;
}

/** What the server process sends back. */
export type ServerMessage =
  | { type: 'ready'; baseUrl: string; partner: FakePartnerCredentials }
  | { type: 'reply'; id: number; result?: unknown; error?: string };

/** A response captured from the fake, replayed by the replay server. */
export interface CapturedResponse {
  status: number;
  /** Response headers to repeat (hop-by-hop and length headers left out). */
  headers: Record<string, string>;
  body: string;
}

/** Argument of the replay server: `METHOD /path?query` → response, and the one accepted token. */
export interface ReplayConfig {
  routes: Record<string, CapturedResponse>;
  token: string;
  /** Route keys answered without the bearer check (the token endpoint). */
  publicRoutes?: string[];
  /** Milliseconds to wait before each answer, as a server in a nearby region would (default 0). */
  delayMs?: number;
  /** Answer `POST /v1/investors` with one `created` result per posted row, in order, as the fake does. */
  investors?: boolean;
  /** Gzip an answer when the request's `Accept-Encoding` names gzip, as a gateway would (default off). */
  gzip?: boolean;
  /** Send answers over one link of this many bytes a second, shared by all connections (default: no limit). */
  bytesPerSecond?: number;
}
