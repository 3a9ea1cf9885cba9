import type { z } from 'zod';
import type { MultipartBody } from '../uploads/multipart-body.js';
import type { RequestOptions } from './request-options.js';
import type { ResponseValidationMode } from './response-validation.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** Query parameters; `undefined` values are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/**
 * One API call as a resource module describes it to the {@link Requester}. At most one of `json`, `form`
 * and `multipart` is given.
 */
export interface RequestSpec<T, Body = T> {
  method: HttpMethod;
  /** The API path, already percent-encoded (e.g. `/v1/spv-requests/${encodeURIComponent(slug)}`). */
  path: string;
  /** The route template (`/v1/spv-requests/{slug}`), so warnings about a route are said once. */
  route?: string | undefined;
  /** The operation's name in traces: its `OPERATIONS` key in snake_case (`spv_requests.get`). */
  operation?: string | undefined;
  query?: QueryParams | undefined;
  /** A JSON request body. */
  json?: unknown;
  /** `json` already written as JSON text (a bulk chunk's stable JSON, its key hashed from it): sent as is. */
  jsonText?: string | undefined;
  /** An `application/x-www-form-urlencoded` body (the token endpoint). */
  form?: Record<string, string> | undefined;
  /** A `multipart/form-data` body, built afresh for every attempt (a stream cannot be sent twice). */
  multipart?: (() => MultipartBody) | undefined;
  /** Sent as `Idempotency-Key` on every attempt; makes a POST retryable. */
  idempotencyKey?: string | undefined;
  /** Retry this POST even without an idempotency key (safe to repeat, like a JWT-bearer token grant). */
  retryPost?: boolean | undefined;
  /** Schema of the success body (checked per the client's `responseValidation`). */
  response: z.ZodType<Body>;
  /**
   * The call's value from the body; the body itself when absent. In `'warn'` and `'off'` modes it may see a
   * body that does not match `response`, so it must not assume the schema held.
   */
  select?(body: Body): T;
  /**
   * How the call authenticates (from its operation): `bearer` needs credentials, `optional` sends a token
   * when the client has credentials, `none` never does. @default 'bearer'
   */
  auth?: 'bearer' | 'optional' | 'none' | undefined;
  /** This call's validation mode, whatever the client's (the token endpoint is always `'strict'`). */
  validation?: ResponseValidationMode | undefined;
  options?: RequestOptions | undefined;
}
