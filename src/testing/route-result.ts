/** What a route answers; the pipeline turns it into a `Response` (and stores it for idempotent replays). */
export interface RouteResult {
  status: number;
  /** A JSON body. */
  json?: unknown;
  /** A text or binary body with its content type. */
  raw?: { body: string | Uint8Array; contentType: string };
  headers?: Record<string, string>;
}
